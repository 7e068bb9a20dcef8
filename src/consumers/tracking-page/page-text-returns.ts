import type { ReturnStatus } from '../../domain/shipment/return-status-machine.js';
import type { Language } from '../../domain/buyer-copy/page-words.js';

interface StatusWords {
  title: string;
  detail: string;
}

/** What the customer's page says of a return (a parcel the courier collects from them), per language. */
export interface ReturnPageText {
  statuses: Record<ReturnStatus, StatusWords>;
  pickupFrom: (city: string) => string;
}

const words = (pickupFrom: (city: string) => string, pairs: [ReturnStatus, string, string][]): ReturnPageText => ({
  pickupFrom,
  statuses: Object.fromEntries(
    pairs.map(([status, title, detail]) => [status, { title, detail }]),
  ) as ReturnPageText['statuses'],
});

export const RETURN_TEXT: Record<Language, ReturnPageText> = {
  en: words(
    (city) => `Pickup from ${city}`,
    [
      ['return_requested', 'Return requested', 'The seller will arrange a pickup.'],
      ['return_pickup_scheduled', 'Pickup scheduled', 'The courier will collect the parcel from you.'],
      ['return_picked_up', 'Picked up', 'The courier has collected your return.'],
      ['return_in_transit', 'On its way back', 'Your return is travelling to the seller.'],
      ['return_delivered', 'Returned to the seller', 'The seller has received your return.'],
      ['return_cancelled', 'Return cancelled', 'This return was cancelled. The courier will not collect it.'],
      [
        'return_lost',
        'Lost in transit',
        'The courier has lost this return. The seller has been told and will contact you.',
      ],
    ],
  ),
  hi: words(
    (city) => `पिकअप: ${city}`,
    [
      ['return_requested', 'वापसी का अनुरोध दर्ज', 'विक्रेता पिकअप की व्यवस्था करेगा।'],
      ['return_pickup_scheduled', 'पिकअप तय हो गया', 'कूरियर आपसे पार्सल ले जाएगा।'],
      ['return_picked_up', 'पिकअप हो गया', 'कूरियर ने आपका वापसी पार्सल ले लिया है।'],
      ['return_in_transit', 'वापस जा रहा है', 'आपका वापसी पार्सल विक्रेता की ओर जा रहा है।'],
      ['return_delivered', 'विक्रेता को मिल गया', 'विक्रेता को आपका वापसी पार्सल मिल गया है।'],
      ['return_cancelled', 'वापसी रद्द', 'यह वापसी रद्द कर दी गई है। कूरियर इसे लेने नहीं आएगा।'],
      ['return_lost', 'रास्ते में खो गया', 'कूरियर से यह वापसी पार्सल खो गया है। विक्रेता को सूचना दे दी गई है, वे आपसे संपर्क करेंगे।'],
    ],
  ),
  mr: words(
    (city) => `पिकअप: ${city}`,
    [
      ['return_requested', 'परतीची विनंती नोंदवली', 'विक्रेता पिकअपची व्यवस्था करतील.'],
      ['return_pickup_scheduled', 'पिकअप ठरले', 'कुरिअर तुमच्याकडून पार्सल घेऊन जाईल.'],
      ['return_picked_up', 'पिकअप झाले', 'कुरिअरने तुमचे परतीचे पार्सल घेतले आहे.'],
      ['return_in_transit', 'परत जात आहे', 'तुमचे परतीचे पार्सल विक्रेत्याकडे जात आहे.'],
      ['return_delivered', 'विक्रेत्याला मिळाले', 'विक्रेत्याला तुमचे परतीचे पार्सल मिळाले आहे.'],
      ['return_cancelled', 'परती रद्द', 'ही परती रद्द झाली आहे. कुरिअर ते घ्यायला येणार नाही.'],
      ['return_lost', 'वाटेत हरवले', 'कुरिअरकडून हे परतीचे पार्सल हरवले आहे. विक्रेत्याला कळवले आहे, ते तुमच्याशी संपर्क साधतील.'],
    ],
  ),
  bn: words(
    (city) => `পিকআপ: ${city}`,
    [
      ['return_requested', 'ফেরতের অনুরোধ নথিভুক্ত', 'বিক্রেতা পিকআপের ব্যবস্থা করবেন।'],
      ['return_pickup_scheduled', 'পিকআপ নির্ধারিত', 'কুরিয়ার আপনার কাছ থেকে পার্সেলটি নিয়ে যাবে।'],
      ['return_picked_up', 'পিকআপ হয়েছে', 'কুরিয়ার আপনার ফেরত পার্সেলটি নিয়ে গেছে।'],
      ['return_in_transit', 'ফেরত যাচ্ছে', 'আপনার ফেরত পার্সেলটি বিক্রেতার কাছে যাচ্ছে।'],
      ['return_delivered', 'বিক্রেতা পেয়েছেন', 'বিক্রেতা আপনার ফেরত পার্সেলটি পেয়েছেন।'],
      ['return_cancelled', 'ফেরত বাতিল', 'এই ফেরত বাতিল করা হয়েছে। কুরিয়ার এটি নিতে আসবে না।'],
      [
        'return_lost',
        'পথে হারিয়ে গেছে',
        'কুরিয়ার এই ফেরত পার্সেলটি হারিয়ে ফেলেছে। বিক্রেতাকে জানানো হয়েছে, তাঁরা আপনার সঙ্গে যোগাযোগ করবেন।',
      ],
    ],
  ),
  gu: words(
    (city) => `પિકઅપ: ${city}`,
    [
      ['return_requested', 'પરતની વિનંતી નોંધાઈ', 'વિક્રેતા પિકઅપની વ્યવસ્થા કરશે.'],
      ['return_pickup_scheduled', 'પિકઅપ નક્કી થયું', 'કુરિયર તમારી પાસેથી પાર્સલ લઈ જશે.'],
      ['return_picked_up', 'પિકઅપ થયું', 'કુરિયરે તમારું પરત પાર્સલ લઈ લીધું છે.'],
      ['return_in_transit', 'પાછું જઈ રહ્યું છે', 'તમારું પરત પાર્સલ વિક્રેતા તરફ જઈ રહ્યું છે.'],
      ['return_delivered', 'વિક્રેતાને મળ્યું', 'વિક્રેતાને તમારું પરત પાર્સલ મળી ગયું છે.'],
      ['return_cancelled', 'પરત રદ', 'આ પરત રદ કરવામાં આવ્યું છે. કુરિયર તેને લેવા નહીં આવે.'],
      ['return_lost', 'રસ્તામાં ખોવાયું', 'કુરિયરથી આ પરત પાર્સલ ખોવાઈ ગયું છે. વિક્રેતાને જાણ કરવામાં આવી છે, તેઓ તમારો સંપર્ક કરશે.'],
    ],
  ),
  ta: words(
    (city) => `பிக்அப்: ${city}`,
    [
      ['return_requested', 'திருப்பி அனுப்பக் கோரப்பட்டது', 'விற்பனையாளர் பிக்அப்பை ஏற்பாடு செய்வார்.'],
      ['return_pickup_scheduled', 'பிக்அப் திட்டமிடப்பட்டது', 'கூரியர் உங்களிடமிருந்து பார்சலைப் பெற்றுக்கொள்ளும்.'],
      ['return_picked_up', 'பிக்அப் ஆனது', 'கூரியர் உங்கள் திருப்பும் பார்சலைப் பெற்றுக்கொண்டது.'],
      ['return_in_transit', 'திரும்பிச் செல்கிறது', 'உங்கள் திருப்பும் பார்சல் விற்பனையாளரை நோக்கிச் செல்கிறது.'],
      ['return_delivered', 'விற்பவரிடம் சேர்ந்தது', 'உங்கள் திருப்பும் பார்சல் விற்பனையாளருக்குக் கிடைத்தது.'],
      ['return_cancelled', 'திருப்புதல் ரத்து', 'இந்தத் திருப்புதல் ரத்து செய்யப்பட்டது. கூரியர் இதைப் பெற வராது.'],
      [
        'return_lost',
        'வழியில் தொலைந்தது',
        'கூரியர் இந்தத் திருப்பும் பார்சலைத் தொலைத்துவிட்டது. விற்பனையாளருக்குத் தெரிவிக்கப்பட்டுள்ளது; அவர்கள் உங்களைத் தொடர்புகொள்வார்கள்.',
      ],
    ],
  ),
  te: words(
    (city) => `పికప్: ${city}`,
    [
      ['return_requested', 'రిటర్న్ అభ్యర్థన నమోదైంది', 'విక్రేత పికప్ ఏర్పాటు చేస్తారు.'],
      ['return_pickup_scheduled', 'పికప్ షెడ్యూల్ అయింది', 'కొరియర్ మీ వద్ద నుండి పార్సెల్ తీసుకువెళ్తుంది.'],
      ['return_picked_up', 'పికప్ అయింది', 'కొరియర్ మీ రిటర్న్ పార్సెల్‌ను తీసుకుంది.'],
      ['return_in_transit', 'తిరిగి వెళ్తోంది', 'మీ రిటర్న్ పార్సెల్ విక్రేత వద్దకు వెళ్తోంది.'],
      ['return_delivered', 'విక్రేతకు చేరింది', 'మీ రిటర్న్ పార్సెల్ విక్రేతకు అందింది.'],
      ['return_cancelled', 'రిటర్న్ రద్దు అయింది', 'ఈ రిటర్న్ రద్దు చేయబడింది. కొరియర్ దీన్ని తీసుకోవడానికి రాదు.'],
      ['return_lost', 'దారిలో పోయింది', 'కొరియర్ ఈ రిటర్న్ పార్సెల్‌ను పోగొట్టింది. విక్రేతకు తెలియజేశాము, వారు మిమ్మల్ని సంప్రదిస్తారు.'],
    ],
  ),
  kn: words(
    (city) => `ಪಿಕಪ್: ${city}`,
    [
      ['return_requested', 'ರಿಟರ್ನ್ ವಿನಂತಿ ದಾಖಲಾಗಿದೆ', 'ಮಾರಾಟಗಾರರು ಪಿಕಪ್ ವ್ಯವಸ್ಥೆ ಮಾಡುತ್ತಾರೆ.'],
      ['return_pickup_scheduled', 'ಪಿಕಪ್ ನಿಗದಿಯಾಗಿದೆ', 'ಕೊರಿಯರ್ ನಿಮ್ಮಿಂದ ಪಾರ್ಸೆಲ್ ತೆಗೆದುಕೊಂಡು ಹೋಗುತ್ತದೆ.'],
      ['return_picked_up', 'ಪಿಕಪ್ ಆಗಿದೆ', 'ಕೊರಿಯರ್ ನಿಮ್ಮ ರಿಟರ್ನ್ ಪಾರ್ಸೆಲ್ ತೆಗೆದುಕೊಂಡಿದೆ.'],
      ['return_in_transit', 'ಹಿಂತಿರುಗುತ್ತಿದೆ', 'ನಿಮ್ಮ ರಿಟರ್ನ್ ಪಾರ್ಸೆಲ್ ಮಾರಾಟಗಾರರ ಕಡೆಗೆ ಹೋಗುತ್ತಿದೆ.'],
      ['return_delivered', 'ಮಾರಾಟಗಾರರಿಗೆ ತಲುಪಿದೆ', 'ಮಾರಾಟಗಾರರಿಗೆ ನಿಮ್ಮ ರಿಟರ್ನ್ ಪಾರ್ಸೆಲ್ ತಲುಪಿದೆ.'],
      ['return_cancelled', 'ರಿಟರ್ನ್ ರದ್ದಾಗಿದೆ', 'ಈ ರಿಟರ್ನ್ ರದ್ದಾಗಿದೆ. ಕೊರಿಯರ್ ಇದನ್ನು ತೆಗೆದುಕೊಳ್ಳಲು ಬರುವುದಿಲ್ಲ.'],
      ['return_lost', 'ದಾರಿಯಲ್ಲಿ ಕಳೆದುಹೋಗಿದೆ', 'ಕೊರಿಯರ್ ಈ ರಿಟರ್ನ್ ಪಾರ್ಸೆಲ್ ಕಳೆದುಕೊಂಡಿದೆ. ಮಾರಾಟಗಾರರಿಗೆ ತಿಳಿಸಲಾಗಿದೆ; ಅವರು ನಿಮ್ಮನ್ನು ಸಂಪರ್ಕಿಸುತ್ತಾರೆ.'],
    ],
  ),
  ml: words(
    (city) => `പിക്കപ്പ്: ${city}`,
    [
      ['return_requested', 'റിട്ടേൺ അഭ്യർത്ഥന രേഖപ്പെടുത്തി', 'വിൽപ്പനക്കാരൻ പിക്കപ്പ് ക്രമീകരിക്കും.'],
      ['return_pickup_scheduled', 'പിക്കപ്പ് നിശ്ചയിച്ചു', 'കൊറിയർ നിങ്ങളിൽ നിന്ന് പാഴ്സൽ കൊണ്ടുപോകും.'],
      ['return_picked_up', 'പിക്കപ്പ് ചെയ്തു', 'കൊറിയർ നിങ്ങളുടെ റിട്ടേൺ പാഴ്സൽ എടുത്തു.'],
      ['return_in_transit', 'തിരികെ പോകുന്നു', 'നിങ്ങളുടെ റിട്ടേൺ പാഴ്സൽ വിൽപ്പനക്കാരന്റെ അടുത്തേക്ക് പോകുന്നു.'],
      ['return_delivered', 'വിൽപ്പനക്കാരന് ലഭിച്ചു', 'നിങ്ങളുടെ റിട്ടേൺ പാഴ്സൽ വിൽപ്പനക്കാരന് ലഭിച്ചു.'],
      ['return_cancelled', 'റിട്ടേൺ റദ്ദാക്കി', 'ഈ റിട്ടേൺ റദ്ദാക്കി. കൊറിയർ ഇത് എടുക്കാൻ വരില്ല.'],
      [
        'return_lost',
        'വഴിയിൽ നഷ്ടപ്പെട്ടു',
        'കൊറിയറിന് ഈ റിട്ടേൺ പാഴ്സൽ നഷ്ടപ്പെട്ടു. വിൽപ്പനക്കാരനെ അറിയിച്ചിട്ടുണ്ട്; അവർ നിങ്ങളെ ബന്ധപ്പെടും.',
      ],
    ],
  ),
};
