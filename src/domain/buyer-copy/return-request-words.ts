import {
  type DeliveredItem,
  MAX_RETURN_PHOTOS,
  type Refusal,
  type RefusalCode,
} from '../return-requests/return-request-rules.js';
import { dayName } from './page-text.js';
import type { Language } from './page-words.js';

// Why the buyer's return request is refused, in the buyer's language (issue 50: "refused with the
// reason in the buyer's language"). `item` is the item's name as the order lists it, `units` what
// may still be asked for, `day` the window's last day as the page names days.

interface Said {
  item: string;
  units: number;
  day: string;
}
type RefusalWords = Record<RefusalCode, (said: Said) => string>;

const WORDS: Record<Language, RefusalWords> = {
  en: {
    requests_off: () => 'This store does not take return requests online. Please contact the seller.',
    not_delivered: () => 'You can ask for a return once the order is delivered.',
    window_closed: ({ day }) => `The last day to ask for a return of this order was ${day}.`,
    already_returned: () => 'This order already has a return under way. Please contact the seller.',
    no_items: () => 'Choose at least one item to return.',
    item_not_in_order: ({ item }) => `${item} is not part of this order.`,
    item_repeated: ({ item }) => `${item} is chosen twice.`,
    quantity_invalid: ({ item }) => `Choose how many of ${item} to return.`,
    non_returnable_sku: ({ item }) => `${item} cannot be returned.`,
    non_returnable_category: ({ item }) =>
      `${item} cannot be returned: the seller does not take back items of its kind.`,
    request_open: ({ item }) => `A return of ${item} is already being reviewed.`,
    quantity_over: ({ item, units }) =>
      units === 0 ? `${item} has already been asked for.` : `You can return at most ${units} of ${item}.`,
    reason_unknown: () => 'Choose a reason from the list.',
    too_many_photos: () => `Add at most ${MAX_RETURN_PHOTOS} photos.`,
    pickup_pincode_unknown: () => 'This pincode does not exist. Please check the pickup pincode.',
    pickup_unserviceable: () =>
      'No courier can collect from this pincode. Please give another pickup address or contact the seller.',
    refund_method_required: () => 'Choose how you would like your money back.',
    refund_method_not_offered: () => 'This way of refunding is not offered for this order. Please choose another.',
    upi_id_invalid: () => 'Please give a UPI id such as name@okaxis.',
    account_holder_required: () => "Please give the account holder's name.",
    account_number_invalid: () => 'A bank account number is 9 to 18 digits.',
    ifsc_invalid: () => 'An IFSC is 11 characters, such as HDFC0001234.',
    ifsc_unknown: () => 'This IFSC is not in the list of bank branches. Please check it.',
  },
  hi: {
    requests_off: () => 'यह स्टोर ऑनलाइन वापसी अनुरोध नहीं लेता। कृपया विक्रेता से संपर्क करें।',
    not_delivered: () => 'ऑर्डर डिलीवर होने के बाद आप वापसी का अनुरोध कर सकते हैं।',
    window_closed: ({ day }) => `इस ऑर्डर की वापसी माँगने का आख़िरी दिन ${day} था।`,
    already_returned: () => 'इस ऑर्डर की एक वापसी पहले से चल रही है। कृपया विक्रेता से संपर्क करें।',
    no_items: () => 'वापस करने के लिए कम से कम एक सामान चुनें।',
    item_not_in_order: ({ item }) => `${item} इस ऑर्डर में नहीं है।`,
    item_repeated: ({ item }) => `${item} दो बार चुना गया है।`,
    quantity_invalid: ({ item }) => `चुनें कि ${item} के कितने नग वापस करने हैं।`,
    non_returnable_sku: ({ item }) => `${item} वापस नहीं किया जा सकता।`,
    non_returnable_category: ({ item }) => `${item} वापस नहीं किया जा सकता: विक्रेता इस तरह का सामान वापस नहीं लेता।`,
    request_open: ({ item }) => `${item} की वापसी का अनुरोध पहले से जाँच में है।`,
    quantity_over: ({ item, units }) =>
      units === 0 ? `${item} की वापसी पहले ही माँगी जा चुकी है।` : `आप ${item} के अधिकतम ${units} नग वापस कर सकते हैं।`,
    reason_unknown: () => 'सूची से एक कारण चुनें।',
    too_many_photos: () => `अधिकतम ${MAX_RETURN_PHOTOS} फ़ोटो जोड़ें।`,
    pickup_pincode_unknown: () => 'यह पिनकोड मौजूद नहीं है। कृपया पिकअप का पिनकोड जाँचें।',
    pickup_unserviceable: () =>
      'इस पिनकोड से कोई कूरियर सामान नहीं ले सकता। कृपया कोई दूसरा पिकअप पता दें या विक्रेता से संपर्क करें।',
    refund_method_required: () => 'चुनें कि आप पैसे किस तरह वापस चाहते हैं।',
    refund_method_not_offered: () => 'इस ऑर्डर के लिए पैसे इस तरह वापस नहीं किए जाते। कृपया कोई दूसरा तरीका चुनें।',
    upi_id_invalid: () => 'कृपया name@okaxis जैसी UPI आईडी दें।',
    account_holder_required: () => 'कृपया खाताधारक का नाम दें।',
    account_number_invalid: () => 'बैंक खाता संख्या 9 से 18 अंकों की होती है।',
    ifsc_invalid: () => 'IFSC 11 अक्षरों का होता है, जैसे HDFC0001234।',
    ifsc_unknown: () => 'यह IFSC बैंक शाखाओं की सूची में नहीं है। कृपया इसे जाँचें।',
  },
  mr: {
    requests_off: () => 'हे स्टोअर ऑनलाइन परतीच्या विनंत्या घेत नाही. कृपया विक्रेत्याशी संपर्क साधा.',
    not_delivered: () => 'ऑर्डर पोहोचल्यानंतर तुम्ही परतीची विनंती करू शकता.',
    window_closed: ({ day }) => `या ऑर्डरची परत मागण्याचा शेवटचा दिवस ${day} होता.`,
    already_returned: () => 'या ऑर्डरची एक परत आधीच सुरू आहे. कृपया विक्रेत्याशी संपर्क साधा.',
    no_items: () => 'परत करण्यासाठी किमान एक वस्तू निवडा.',
    item_not_in_order: ({ item }) => `${item} या ऑर्डरमध्ये नाही.`,
    item_repeated: ({ item }) => `${item} दोनदा निवडले आहे.`,
    quantity_invalid: ({ item }) => `${item} किती परत करायचे ते निवडा.`,
    non_returnable_sku: ({ item }) => `${item} परत करता येत नाही.`,
    non_returnable_category: ({ item }) => `${item} परत करता येत नाही: विक्रेता या प्रकारच्या वस्तू परत घेत नाही.`,
    request_open: ({ item }) => `${item} च्या परतीची विनंती आधीच तपासली जात आहे.`,
    quantity_over: ({ item, units }) =>
      units === 0 ? `${item} ची परत आधीच मागितली आहे.` : `तुम्ही ${item} पैकी जास्तीत जास्त ${units} परत करू शकता.`,
    reason_unknown: () => 'यादीतून एक कारण निवडा.',
    too_many_photos: () => `जास्तीत जास्त ${MAX_RETURN_PHOTOS} फोटो जोडा.`,
    pickup_pincode_unknown: () => 'हा पिनकोड अस्तित्वात नाही. कृपया पिकअपचा पिनकोड तपासा.',
    pickup_unserviceable: () =>
      'या पिनकोडवरून कोणताही कुरिअर वस्तू नेऊ शकत नाही. कृपया दुसरा पिकअप पत्ता द्या किंवा विक्रेत्याशी संपर्क साधा.',
    refund_method_required: () => 'तुम्हाला पैसे कसे परत हवे आहेत ते निवडा.',
    refund_method_not_offered: () => 'या ऑर्डरसाठी अशा प्रकारे पैसे परत केले जात नाहीत. कृपया दुसरा पर्याय निवडा.',
    upi_id_invalid: () => 'कृपया name@okaxis सारखा UPI आयडी द्या.',
    account_holder_required: () => 'कृपया खातेदाराचे नाव द्या.',
    account_number_invalid: () => 'बँक खाते क्रमांक 9 ते 18 अंकी असतो.',
    ifsc_invalid: () => 'IFSC 11 अक्षरांचा असतो, उदाहरणार्थ HDFC0001234.',
    ifsc_unknown: () => 'हा IFSC बँक शाखांच्या यादीत नाही. कृपया तो तपासा.',
  },
  bn: {
    requests_off: () => 'এই স্টোর অনলাইনে ফেরতের অনুরোধ নেয় না। অনুগ্রহ করে বিক্রেতার সঙ্গে যোগাযোগ করুন।',
    not_delivered: () => 'অর্ডার ডেলিভারি হওয়ার পরে আপনি ফেরতের অনুরোধ করতে পারবেন।',
    window_closed: ({ day }) => `এই অর্ডারের ফেরত চাওয়ার শেষ দিন ছিল ${day}।`,
    already_returned: () => 'এই অর্ডারের একটি ফেরত ইতিমধ্যে চলছে। অনুগ্রহ করে বিক্রেতার সঙ্গে যোগাযোগ করুন।',
    no_items: () => 'ফেরত দেওয়ার জন্য অন্তত একটি জিনিস বেছে নিন।',
    item_not_in_order: ({ item }) => `${item} এই অর্ডারে নেই।`,
    item_repeated: ({ item }) => `${item} দুবার বেছে নেওয়া হয়েছে।`,
    quantity_invalid: ({ item }) => `${item} কতগুলি ফেরত দেবেন বেছে নিন।`,
    non_returnable_sku: ({ item }) => `${item} ফেরত দেওয়া যায় না।`,
    non_returnable_category: ({ item }) => `${item} ফেরত দেওয়া যায় না: বিক্রেতা এই ধরনের জিনিস ফেরত নেন না।`,
    request_open: ({ item }) => `${item} ফেরতের অনুরোধ ইতিমধ্যে পর্যালোচনায় আছে।`,
    quantity_over: ({ item, units }) =>
      units === 0 ? `${item} ফেরতের অনুরোধ আগেই করা হয়েছে।` : `আপনি ${item} সর্বাধিক ${units}টি ফেরত দিতে পারেন।`,
    reason_unknown: () => 'তালিকা থেকে একটি কারণ বেছে নিন।',
    too_many_photos: () => `সর্বাধিক ${MAX_RETURN_PHOTOS}টি ছবি যোগ করুন।`,
    pickup_pincode_unknown: () => 'এই পিনকোডটি নেই। অনুগ্রহ করে পিকআপের পিনকোড দেখে নিন।',
    pickup_unserviceable: () =>
      'এই পিনকোড থেকে কোনো কুরিয়ার জিনিস নিতে পারে না। অনুগ্রহ করে অন্য পিকআপ ঠিকানা দিন বা বিক্রেতার সঙ্গে যোগাযোগ করুন।',
    refund_method_required: () => 'আপনি কীভাবে টাকা ফেরত চান, বেছে নিন।',
    refund_method_not_offered: () => 'এই অর্ডারে এভাবে টাকা ফেরত দেওয়া হয় না। অনুগ্রহ করে অন্য একটি উপায় বেছে নিন।',
    upi_id_invalid: () => 'অনুগ্রহ করে name@okaxis-এর মতো একটি UPI আইডি দিন।',
    account_holder_required: () => 'অনুগ্রহ করে অ্যাকাউন্টধারীর নাম দিন।',
    account_number_invalid: () => 'ব্যাংক অ্যাকাউন্ট নম্বর 9 থেকে 18 অঙ্কের হয়।',
    ifsc_invalid: () => 'IFSC 11 অক্ষরের হয়, যেমন HDFC0001234।',
    ifsc_unknown: () => 'এই IFSC ব্যাংক শাখার তালিকায় নেই। অনুগ্রহ করে এটি দেখে নিন।',
  },
  gu: {
    requests_off: () => 'આ સ્ટોર ઓનલાઇન પરત વિનંતીઓ લેતો નથી. કૃપા કરીને વિક્રેતાનો સંપર્ક કરો.',
    not_delivered: () => 'ઓર્ડર ડિલિવર થયા પછી તમે પરત માટે વિનંતી કરી શકો છો.',
    window_closed: ({ day }) => `આ ઓર્ડરનું પરત માંગવાનો છેલ્લો દિવસ ${day} હતો.`,
    already_returned: () => 'આ ઓર્ડરનું એક પરત પહેલેથી ચાલુ છે. કૃપા કરીને વિક્રેતાનો સંપર્ક કરો.',
    no_items: () => 'પરત કરવા માટે ઓછામાં ઓછી એક વસ્તુ પસંદ કરો.',
    item_not_in_order: ({ item }) => `${item} આ ઓર્ડરમાં નથી.`,
    item_repeated: ({ item }) => `${item} બે વાર પસંદ કરેલ છે.`,
    quantity_invalid: ({ item }) => `${item} કેટલા પરત કરવા છે તે પસંદ કરો.`,
    non_returnable_sku: ({ item }) => `${item} પરત કરી શકાતું નથી.`,
    non_returnable_category: ({ item }) => `${item} પરત કરી શકાતું નથી: વિક્રેતા આ પ્રકારની વસ્તુઓ પાછી લેતા નથી.`,
    request_open: ({ item }) => `${item} ની પરત વિનંતી પહેલેથી જ તપાસ હેઠળ છે.`,
    quantity_over: ({ item, units }) =>
      units === 0 ? `${item} નું પરત પહેલેથી માંગવામાં આવ્યું છે.` : `તમે ${item} માંથી વધુમાં વધુ ${units} પરત કરી શકો છો.`,
    reason_unknown: () => 'યાદીમાંથી એક કારણ પસંદ કરો.',
    too_many_photos: () => `વધુમાં વધુ ${MAX_RETURN_PHOTOS} ફોટા ઉમેરો.`,
    pickup_pincode_unknown: () => 'આ પિનકોડ અસ્તિત્વમાં નથી. કૃપા કરીને પિકઅપનો પિનકોડ તપાસો.',
    pickup_unserviceable: () =>
      'આ પિનકોડ પરથી કોઈ કુરિયર સામાન લઈ શકતું નથી. કૃપા કરીને બીજું પિકઅપ સરનામું આપો અથવા વિક્રેતાનો સંપર્ક કરો.',
    refund_method_required: () => 'તમે પૈસા કઈ રીતે પાછા મેળવવા માંગો છો તે પસંદ કરો.',
    refund_method_not_offered: () => 'આ ઓર્ડર માટે આ રીતે પૈસા પાછા આપવામાં આવતા નથી. કૃપા કરીને બીજી રીત પસંદ કરો.',
    upi_id_invalid: () => 'કૃપા કરીને name@okaxis જેવી UPI આઈડી આપો.',
    account_holder_required: () => 'કૃપા કરીને ખાતેદારનું નામ આપો.',
    account_number_invalid: () => 'બેંક ખાતા નંબર 9 થી 18 અંકનો હોય છે.',
    ifsc_invalid: () => 'IFSC 11 અક્ષરનો હોય છે, જેમ કે HDFC0001234.',
    ifsc_unknown: () => 'આ IFSC બેંક શાખાઓની યાદીમાં નથી. કૃપા કરીને તેને તપાસો.',
  },
  ta: {
    requests_off: () => 'இந்தக் கடை இணையத்தில் திருப்பி அனுப்பும் கோரிக்கைகளை ஏற்பதில்லை. விற்பனையாளரைத் தொடர்புகொள்ளவும்.',
    not_delivered: () => 'ஆர்டர் டெலிவரி ஆன பிறகு திருப்பி அனுப்பக் கோரலாம்.',
    window_closed: ({ day }) => `இந்த ஆர்டரைத் திருப்பி அனுப்பக் கோர கடைசி நாள் ${day}.`,
    already_returned: () => 'இந்த ஆர்டருக்கு ஏற்கெனவே ஒரு திருப்பி அனுப்புதல் நடைபெறுகிறது. விற்பனையாளரைத் தொடர்புகொள்ளவும்.',
    no_items: () => 'திருப்பி அனுப்ப குறைந்தது ஒரு பொருளைத் தேர்ந்தெடுக்கவும்.',
    item_not_in_order: ({ item }) => `${item} இந்த ஆர்டரில் இல்லை.`,
    item_repeated: ({ item }) => `${item} இருமுறை தேர்ந்தெடுக்கப்பட்டுள்ளது.`,
    quantity_invalid: ({ item }) => `${item} எத்தனை திருப்பி அனுப்ப வேண்டும் எனத் தேர்ந்தெடுக்கவும்.`,
    non_returnable_sku: ({ item }) => `${item} திருப்பி அனுப்ப முடியாது.`,
    non_returnable_category: ({ item }) =>
      `${item} திருப்பி அனுப்ப முடியாது: இந்த வகைப் பொருட்களை விற்பனையாளர் திரும்பப் பெறுவதில்லை.`,
    request_open: ({ item }) => `${item} திருப்பி அனுப்பும் கோரிக்கை ஏற்கெனவே பரிசீலனையில் உள்ளது.`,
    quantity_over: ({ item, units }) =>
      units === 0 ? `${item} திருப்பி அனுப்ப ஏற்கெனவே கோரப்பட்டுள்ளது.` : `${item} அதிகபட்சம் ${units} மட்டுமே திருப்பி அனுப்பலாம்.`,
    reason_unknown: () => 'பட்டியலிலிருந்து ஒரு காரணத்தைத் தேர்ந்தெடுக்கவும்.',
    too_many_photos: () => `அதிகபட்சம் ${MAX_RETURN_PHOTOS} புகைப்படங்களைச் சேர்க்கவும்.`,
    pickup_pincode_unknown: () => 'இந்த பின்கோடு இல்லை. பிக்அப் பின்கோடைச் சரிபார்க்கவும்.',
    pickup_unserviceable: () =>
      'இந்த பின்கோடிலிருந்து எந்த கூரியரும் பொருட்களை எடுக்க முடியாது. வேறு பிக்அப் முகவரியைத் தரவும் அல்லது விற்பனையாளரைத் தொடர்பு கொள்ளவும்.',
    refund_method_required: () => 'பணத்தை எப்படித் திரும்பப் பெற விரும்புகிறீர்கள் எனத் தேர்ந்தெடுக்கவும்.',
    refund_method_not_offered: () => 'இந்த ஆர்டருக்கு இந்த முறையில் பணம் திருப்பித் தரப்படுவதில்லை. வேறு முறையைத் தேர்ந்தெடுக்கவும்.',
    upi_id_invalid: () => 'name@okaxis போன்ற UPI ஐடியைக் கொடுக்கவும்.',
    account_holder_required: () => 'கணக்கு வைத்திருப்பவரின் பெயரைக் கொடுக்கவும்.',
    account_number_invalid: () => 'வங்கிக் கணக்கு எண் 9 முதல் 18 இலக்கங்கள் கொண்டது.',
    ifsc_invalid: () => 'IFSC 11 எழுத்துகள் கொண்டது, எடுத்துக்காட்டாக HDFC0001234.',
    ifsc_unknown: () => 'இந்த IFSC வங்கிக் கிளைகளின் பட்டியலில் இல்லை. அதைச் சரிபார்க்கவும்.',
  },
  te: {
    requests_off: () => 'ఈ స్టోర్ ఆన్‌లైన్‌లో రిటర్న్ అభ్యర్థనలు తీసుకోదు. దయచేసి విక్రేతను సంప్రదించండి.',
    not_delivered: () => 'ఆర్డర్ డెలివరీ అయిన తర్వాత మీరు రిటర్న్ కోసం అభ్యర్థించవచ్చు.',
    window_closed: ({ day }) => `ఈ ఆర్డర్ రిటర్న్ కోసం అభ్యర్థించడానికి చివరి రోజు ${day}.`,
    already_returned: () => 'ఈ ఆర్డర్‌కు ఇప్పటికే ఒక రిటర్న్ జరుగుతోంది. దయచేసి విక్రేతను సంప్రదించండి.',
    no_items: () => 'రిటర్న్ చేయడానికి కనీసం ఒక వస్తువును ఎంచుకోండి.',
    item_not_in_order: ({ item }) => `${item} ఈ ఆర్డర్‌లో లేదు.`,
    item_repeated: ({ item }) => `${item} రెండుసార్లు ఎంచుకోబడింది.`,
    quantity_invalid: ({ item }) => `${item} ఎన్ని రిటర్న్ చేయాలో ఎంచుకోండి.`,
    non_returnable_sku: ({ item }) => `${item} రిటర్న్ చేయలేరు.`,
    non_returnable_category: ({ item }) => `${item} రిటర్న్ చేయలేరు: ఈ రకమైన వస్తువులను విక్రేత తిరిగి తీసుకోరు.`,
    request_open: ({ item }) => `${item} రిటర్న్ అభ్యర్థన ఇప్పటికే పరిశీలనలో ఉంది.`,
    quantity_over: ({ item, units }) =>
      units === 0 ? `${item} రిటర్న్ ఇప్పటికే అభ్యర్థించబడింది.` : `మీరు ${item} గరిష్ఠంగా ${units} మాత్రమే రిటర్న్ చేయగలరు.`,
    reason_unknown: () => 'జాబితా నుండి ఒక కారణాన్ని ఎంచుకోండి.',
    too_many_photos: () => `గరిష్ఠంగా ${MAX_RETURN_PHOTOS} ఫోటోలు జోడించండి.`,
    pickup_pincode_unknown: () => 'ఈ పిన్‌కోడ్ లేదు. దయచేసి పికప్ పిన్‌కోడ్‌ను సరిచూడండి.',
    pickup_unserviceable: () =>
      'ఈ పిన్‌కోడ్ నుండి ఏ కొరియర్ కూడా వస్తువులను తీసుకోలేదు. దయచేసి వేరే పికప్ చిరునామా ఇవ్వండి లేదా విక్రేతను సంప్రదించండి.',
    refund_method_required: () => 'మీ డబ్బును ఎలా తిరిగి పొందాలనుకుంటున్నారో ఎంచుకోండి.',
    refund_method_not_offered: () => 'ఈ ఆర్డర్‌కు ఈ విధంగా డబ్బు వాపసు ఇవ్వడం లేదు. దయచేసి వేరే విధానాన్ని ఎంచుకోండి.',
    upi_id_invalid: () => 'దయచేసి name@okaxis వంటి UPI ఐడిని ఇవ్వండి.',
    account_holder_required: () => 'దయచేసి ఖాతాదారు పేరు ఇవ్వండి.',
    account_number_invalid: () => 'బ్యాంక్ ఖాతా నంబర్‌లో 9 నుండి 18 అంకెలు ఉంటాయి.',
    ifsc_invalid: () => 'IFSCలో 11 అక్షరాలు ఉంటాయి, ఉదాహరణకు HDFC0001234.',
    ifsc_unknown: () => 'ఈ IFSC బ్యాంక్ శాఖల జాబితాలో లేదు. దయచేసి దాన్ని సరిచూడండి.',
  },
  kn: {
    requests_off: () => 'ಈ ಅಂಗಡಿ ಆನ್‌ಲೈನ್‌ನಲ್ಲಿ ಹಿಂತಿರುಗಿಸುವ ವಿನಂತಿಗಳನ್ನು ಸ್ವೀಕರಿಸುವುದಿಲ್ಲ. ದಯವಿಟ್ಟು ಮಾರಾಟಗಾರರನ್ನು ಸಂಪರ್ಕಿಸಿ.',
    not_delivered: () => 'ಆರ್ಡರ್ ತಲುಪಿದ ನಂತರ ನೀವು ಹಿಂತಿರುಗಿಸಲು ವಿನಂತಿಸಬಹುದು.',
    window_closed: ({ day }) => `ಈ ಆರ್ಡರ್ ಹಿಂತಿರುಗಿಸಲು ವಿನಂತಿಸುವ ಕೊನೆಯ ದಿನ ${day} ಆಗಿತ್ತು.`,
    already_returned: () => 'ಈ ಆರ್ಡರ್‌ಗೆ ಈಗಾಗಲೇ ಒಂದು ಹಿಂತಿರುಗಿಸುವಿಕೆ ನಡೆಯುತ್ತಿದೆ. ದಯವಿಟ್ಟು ಮಾರಾಟಗಾರರನ್ನು ಸಂಪರ್ಕಿಸಿ.',
    no_items: () => 'ಹಿಂತಿರುಗಿಸಲು ಕನಿಷ್ಠ ಒಂದು ವಸ್ತುವನ್ನು ಆಯ್ಕೆಮಾಡಿ.',
    item_not_in_order: ({ item }) => `${item} ಈ ಆರ್ಡರ್‌ನಲ್ಲಿ ಇಲ್ಲ.`,
    item_repeated: ({ item }) => `${item} ಎರಡು ಬಾರಿ ಆಯ್ಕೆಯಾಗಿದೆ.`,
    quantity_invalid: ({ item }) => `${item} ಎಷ್ಟು ಹಿಂತಿರುಗಿಸಬೇಕು ಎಂದು ಆಯ್ಕೆಮಾಡಿ.`,
    non_returnable_sku: ({ item }) => `${item} ಹಿಂತಿರುಗಿಸಲು ಸಾಧ್ಯವಿಲ್ಲ.`,
    non_returnable_category: ({ item }) => `${item} ಹಿಂತಿರುಗಿಸಲು ಸಾಧ್ಯವಿಲ್ಲ: ಈ ಬಗೆಯ ವಸ್ತುಗಳನ್ನು ಮಾರಾಟಗಾರರು ಹಿಂಪಡೆಯುವುದಿಲ್ಲ.`,
    request_open: ({ item }) => `${item} ಹಿಂತಿರುಗಿಸುವ ವಿನಂತಿ ಈಗಾಗಲೇ ಪರಿಶೀಲನೆಯಲ್ಲಿದೆ.`,
    quantity_over: ({ item, units }) =>
      units === 0 ? `${item} ಹಿಂತಿರುಗಿಸಲು ಈಗಾಗಲೇ ವಿನಂತಿಸಲಾಗಿದೆ.` : `ನೀವು ${item} ಗರಿಷ್ಠ ${units} ಮಾತ್ರ ಹಿಂತಿರುಗಿಸಬಹುದು.`,
    reason_unknown: () => 'ಪಟ್ಟಿಯಿಂದ ಒಂದು ಕಾರಣವನ್ನು ಆಯ್ಕೆಮಾಡಿ.',
    too_many_photos: () => `ಗರಿಷ್ಠ ${MAX_RETURN_PHOTOS} ಫೋಟೋಗಳನ್ನು ಸೇರಿಸಿ.`,
    pickup_pincode_unknown: () => 'ಈ ಪಿನ್‌ಕೋಡ್ ಅಸ್ತಿತ್ವದಲ್ಲಿಲ್ಲ. ದಯವಿಟ್ಟು ಪಿಕಪ್ ಪಿನ್‌ಕೋಡ್ ಪರಿಶೀಲಿಸಿ.',
    pickup_unserviceable: () =>
      'ಈ ಪಿನ್‌ಕೋಡ್‌ನಿಂದ ಯಾವುದೇ ಕೊರಿಯರ್ ವಸ್ತುಗಳನ್ನು ತೆಗೆದುಕೊಳ್ಳಲು ಸಾಧ್ಯವಿಲ್ಲ. ದಯವಿಟ್ಟು ಬೇರೆ ಪಿಕಪ್ ವಿಳಾಸ ನೀಡಿ ಅಥವಾ ಮಾರಾಟಗಾರರನ್ನು ಸಂಪರ್ಕಿಸಿ.',
    refund_method_required: () => 'ನಿಮ್ಮ ಹಣವನ್ನು ಹೇಗೆ ವಾಪಸ್ ಪಡೆಯಲು ಬಯಸುತ್ತೀರಿ ಎಂದು ಆಯ್ಕೆಮಾಡಿ.',
    refund_method_not_offered: () => 'ಈ ಆರ್ಡರ್‌ಗೆ ಈ ರೀತಿಯಲ್ಲಿ ಹಣ ವಾಪಸ್ ನೀಡುವುದಿಲ್ಲ. ದಯವಿಟ್ಟು ಬೇರೆ ವಿಧಾನವನ್ನು ಆಯ್ಕೆಮಾಡಿ.',
    upi_id_invalid: () => 'ದಯವಿಟ್ಟು name@okaxis ರೀತಿಯ UPI ಐಡಿ ನೀಡಿ.',
    account_holder_required: () => 'ದಯವಿಟ್ಟು ಖಾತೆದಾರರ ಹೆಸರನ್ನು ನೀಡಿ.',
    account_number_invalid: () => 'ಬ್ಯಾಂಕ್ ಖಾತೆ ಸಂಖ್ಯೆಯಲ್ಲಿ 9 ರಿಂದ 18 ಅಂಕೆಗಳಿರುತ್ತವೆ.',
    ifsc_invalid: () => 'IFSC ಯಲ್ಲಿ 11 ಅಕ್ಷರಗಳಿರುತ್ತವೆ, ಉದಾಹರಣೆಗೆ HDFC0001234.',
    ifsc_unknown: () => 'ಈ IFSC ಬ್ಯಾಂಕ್ ಶಾಖೆಗಳ ಪಟ್ಟಿಯಲ್ಲಿ ಇಲ್ಲ. ದಯವಿಟ್ಟು ಅದನ್ನು ಪರಿಶೀಲಿಸಿ.',
  },
  ml: {
    requests_off: () => 'ഈ സ്റ്റോർ ഓൺലൈനായി റിട്ടേൺ അഭ്യർത്ഥനകൾ സ്വീകരിക്കുന്നില്ല. ദയവായി വിൽപ്പനക്കാരനെ ബന്ധപ്പെടുക.',
    not_delivered: () => 'ഓർഡർ ഡെലിവർ ചെയ്ത ശേഷം നിങ്ങൾക്ക് റിട്ടേൺ അഭ്യർത്ഥിക്കാം.',
    window_closed: ({ day }) => `ഈ ഓർഡറിന്റെ റിട്ടേൺ അഭ്യർത്ഥിക്കാനുള്ള അവസാന ദിവസം ${day} ആയിരുന്നു.`,
    already_returned: () => 'ഈ ഓർഡറിന് ഇതിനകം ഒരു റിട്ടേൺ നടക്കുന്നുണ്ട്. ദയവായി വിൽപ്പനക്കാരനെ ബന്ധപ്പെടുക.',
    no_items: () => 'തിരികെ നൽകാൻ കുറഞ്ഞത് ഒരു സാധനമെങ്കിലും തിരഞ്ഞെടുക്കുക.',
    item_not_in_order: ({ item }) => `${item} ഈ ഓർഡറിൽ ഇല്ല.`,
    item_repeated: ({ item }) => `${item} രണ്ടുതവണ തിരഞ്ഞെടുത്തിരിക്കുന്നു.`,
    quantity_invalid: ({ item }) => `${item} എത്രയെണ്ണം തിരികെ നൽകണമെന്ന് തിരഞ്ഞെടുക്കുക.`,
    non_returnable_sku: ({ item }) => `${item} തിരികെ നൽകാനാവില്ല.`,
    non_returnable_category: ({ item }) => `${item} തിരികെ നൽകാനാവില്ല: ഈ തരം സാധനങ്ങൾ വിൽപ്പനക്കാരൻ തിരികെ എടുക്കുന്നില്ല.`,
    request_open: ({ item }) => `${item} തിരികെ നൽകാനുള്ള അഭ്യർത്ഥന ഇതിനകം പരിശോധനയിലാണ്.`,
    quantity_over: ({ item, units }) =>
      units === 0
        ? `${item} തിരികെ നൽകാൻ ഇതിനകം അഭ്യർത്ഥിച്ചിട്ടുണ്ട്.`
        : `നിങ്ങൾക്ക് ${item} പരമാവധി ${units} എണ്ണം മാത്രമേ തിരികെ നൽകാനാകൂ.`,
    reason_unknown: () => 'പട്ടികയിൽ നിന്ന് ഒരു കാരണം തിരഞ്ഞെടുക്കുക.',
    too_many_photos: () => `പരമാവധി ${MAX_RETURN_PHOTOS} ഫോട്ടോകൾ ചേർക്കുക.`,
    pickup_pincode_unknown: () => 'ഈ പിൻകോഡ് നിലവിലില്ല. ദയവായി പിക്കപ്പ് പിൻകോഡ് പരിശോധിക്കുക.',
    pickup_unserviceable: () =>
      'ഈ പിൻകോഡിൽ നിന്ന് ഒരു കൊറിയറിനും സാധനങ്ങൾ എടുക്കാൻ കഴിയില്ല. ദയവായി മറ്റൊരു പിക്കപ്പ് വിലാസം നൽകുക അല്ലെങ്കിൽ വിൽപ്പനക്കാരനെ ബന്ധപ്പെടുക.',
    refund_method_required: () => 'പണം എങ്ങനെ തിരികെ ലഭിക്കണമെന്ന് തിരഞ്ഞെടുക്കുക.',
    refund_method_not_offered: () => 'ഈ ഓർഡറിന് ഈ രീതിയിൽ പണം തിരികെ നൽകുന്നില്ല. ദയവായി മറ്റൊരു രീതി തിരഞ്ഞെടുക്കുക.',
    upi_id_invalid: () => 'ദയവായി name@okaxis പോലുള്ള ഒരു UPI ഐഡി നൽകുക.',
    account_holder_required: () => 'ദയവായി അക്കൗണ്ട് ഉടമയുടെ പേര് നൽകുക.',
    account_number_invalid: () => 'ബാങ്ക് അക്കൗണ്ട് നമ്പറിൽ 9 മുതൽ 18 വരെ അക്കങ്ങളുണ്ട്.',
    ifsc_invalid: () => 'IFSC 11 അക്ഷരങ്ങളുള്ളതാണ്, ഉദാഹരണത്തിന് HDFC0001234.',
    ifsc_unknown: () => 'ഈ IFSC ബാങ്ക് ശാഖകളുടെ പട്ടികയിൽ ഇല്ല. ദയവായി അത് പരിശോധിക്കുക.',
  },
};

/** The refusal in the buyer's language, naming the item as the order lists it (or its SKU when the order lacks it). */
export function refusalText(refusal: Refusal, items: readonly DeliveredItem[], language: Language): string {
  const item = items.find((i) => i.sku === refusal.sku)?.name ?? refusal.sku ?? '';
  const day = refusal.lastDay === undefined ? '' : dayName(refusal.lastDay, language);
  return WORDS[language][refusal.code]({ item, units: refusal.unitsLeft ?? 0, day });
}
