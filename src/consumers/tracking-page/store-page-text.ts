import type { Language } from '../../domain/buyer-copy/page-text.js';
import type { StoreWords } from './store-page-words.js';
import { KN, ML, TA, TE } from './store-page-text-south.js';

const EN: StoreWords = {
  title: 'Track your order',
  intro: (brand) =>
    `Find your ${brand} parcel: enter its AWB (tracking number), or your order number with the phone number you ordered with.`,
  byAwb: 'Track by AWB',
  byOrder: 'Track by order number',
  labels: { awb: 'AWB (tracking number)', order_id: 'Order number', phone: 'Phone number on the order' },
  hints: {
    awb: 'On the parcel and in the message about your shipment.',
    order_id: 'As in your order confirmation.',
    phone: 'The 10-digit number you gave when ordering.',
  },
  submit: 'Track',
  notFound: (brand) =>
    `We could not find a ${brand} shipment with these details. Check them against your order confirmation and try again; a parcel shows here once the courier is booked.`,
  fix: 'Please correct these:',
  problems: {
    required: (l) => `${l}: please fill this in`,
    awb_invalid: (l) => `${l}: only letters, digits and hyphens, at most 40`,
    order_invalid: (l) => `${l}: at most 100 characters on one line`,
    phone_invalid: (l) => `${l}: please give a 10-digit Indian phone number`,
    phone_mismatch: (l) => `${l}: this is not the number on the order`,
  },
  manageTitle: 'Is this your parcel?',
  manageIntro:
    'To ask for another delivery attempt, change the address or refuse the parcel, enter the phone number on the order.',
  manageSubmit: 'Continue',
  another: 'Track another parcel',
};

const HI: StoreWords = {
  title: 'अपना ऑर्डर ट्रैक करें',
  intro: (brand) => `अपना ${brand} पार्सल खोजें: उसका AWB (ट्रैकिंग नंबर) डालें, या अपना ऑर्डर नंबर और ऑर्डर में दिया फ़ोन नंबर।`,
  byAwb: 'AWB से ट्रैक करें',
  byOrder: 'ऑर्डर नंबर से ट्रैक करें',
  labels: { awb: 'AWB (ट्रैकिंग नंबर)', order_id: 'ऑर्डर नंबर', phone: 'ऑर्डर में दिया फ़ोन नंबर' },
  hints: {
    awb: 'पार्सल पर और शिपमेंट के संदेश में लिखा होता है।',
    order_id: 'जैसा ऑर्डर की पुष्टि में लिखा है।',
    phone: 'ऑर्डर करते समय दिया 10 अंकों का नंबर।',
  },
  submit: 'ट्रैक करें',
  notFound: (brand) =>
    `इन जानकारियों से ${brand} का कोई शिपमेंट नहीं मिला। अपने ऑर्डर की पुष्टि से मिलाकर फिर कोशिश करें; कूरियर बुक होने के बाद ही पार्सल यहाँ दिखता है।`,
  fix: 'कृपया इन्हें ठीक करें:',
  problems: {
    required: (l) => `${l}: कृपया भरें`,
    awb_invalid: (l) => `${l}: केवल अक्षर, अंक और हाइफ़न, अधिकतम 40`,
    order_invalid: (l) => `${l}: एक पंक्ति में अधिकतम 100 अक्षर`,
    phone_invalid: (l) => `${l}: कृपया 10 अंकों का भारतीय फ़ोन नंबर दें`,
    phone_mismatch: (l) => `${l}: यह ऑर्डर में दिया नंबर नहीं है`,
  },
  manageTitle: 'क्या यह आपका पार्सल है?',
  manageIntro: 'दोबारा डिलीवरी का अनुरोध करने, पता बदलने या पार्सल लेने से मना करने के लिए ऑर्डर में दिया फ़ोन नंबर डालें।',
  manageSubmit: 'आगे बढ़ें',
  another: 'दूसरा पार्सल ट्रैक करें',
};

const MR: StoreWords = {
  title: 'तुमची ऑर्डर ट्रॅक करा',
  intro: (brand) =>
    `तुमचे ${brand} पार्सल शोधा: त्याचा AWB (ट्रॅकिंग नंबर) टाका, किंवा तुमचा ऑर्डर नंबर आणि ऑर्डर करताना दिलेला फोन नंबर.`,
  byAwb: 'AWB ने ट्रॅक करा',
  byOrder: 'ऑर्डर नंबरने ट्रॅक करा',
  labels: { awb: 'AWB (ट्रॅकिंग नंबर)', order_id: 'ऑर्डर नंबर', phone: 'ऑर्डरवरील फोन नंबर' },
  hints: {
    awb: 'पार्सलवर आणि शिपमेंटच्या संदेशात दिलेला असतो.',
    order_id: 'ऑर्डरच्या पुष्टीकरणात दिल्याप्रमाणे.',
    phone: 'ऑर्डर करताना दिलेला 10 अंकी नंबर.',
  },
  submit: 'ट्रॅक करा',
  notFound: (brand) =>
    `या माहितीने ${brand} चे कोणतेही शिपमेंट सापडले नाही. तुमच्या ऑर्डरच्या पुष्टीकरणाशी जुळवून पुन्हा प्रयत्न करा; कुरिअर बुक झाल्यावरच पार्सल इथे दिसते.`,
  fix: 'कृपया हे दुरुस्त करा:',
  problems: {
    required: (l) => `${l}: कृपया भरा`,
    awb_invalid: (l) => `${l}: फक्त अक्षरे, अंक आणि हायफन, जास्तीत जास्त 40`,
    order_invalid: (l) => `${l}: एका ओळीत जास्तीत जास्त 100 अक्षरे`,
    phone_invalid: (l) => `${l}: कृपया 10 अंकी भारतीय फोन नंबर द्या`,
    phone_mismatch: (l) => `${l}: हा ऑर्डरवरील नंबर नाही`,
  },
  manageTitle: 'हे तुमचे पार्सल आहे का?',
  manageIntro: 'पुन्हा डिलिव्हरीची विनंती करण्यासाठी, पत्ता बदलण्यासाठी किंवा पार्सल नाकारण्यासाठी ऑर्डरवरील फोन नंबर टाका.',
  manageSubmit: 'पुढे जा',
  another: 'दुसरे पार्सल ट्रॅक करा',
};

const BN: StoreWords = {
  title: 'আপনার অর্ডার ট্র্যাক করুন',
  intro: (brand) =>
    `আপনার ${brand} পার্সেল খুঁজুন: এর AWB (ট্র্যাকিং নম্বর) লিখুন, অথবা আপনার অর্ডার নম্বর আর অর্ডারের সময় দেওয়া ফোন নম্বর।`,
  byAwb: 'AWB দিয়ে ট্র্যাক করুন',
  byOrder: 'অর্ডার নম্বর দিয়ে ট্র্যাক করুন',
  labels: { awb: 'AWB (ট্র্যাকিং নম্বর)', order_id: 'অর্ডার নম্বর', phone: 'অর্ডারে দেওয়া ফোন নম্বর' },
  hints: {
    awb: 'পার্সেলের গায়ে এবং শিপমেন্টের বার্তায় লেখা থাকে।',
    order_id: 'অর্ডারের নিশ্চিতকরণে যেমন লেখা আছে।',
    phone: 'অর্ডার করার সময় দেওয়া 10 সংখ্যার নম্বর।',
  },
  submit: 'ট্র্যাক করুন',
  notFound: (brand) =>
    `এই তথ্য দিয়ে ${brand}-এর কোনো শিপমেন্ট পাওয়া যায়নি। অর্ডারের নিশ্চিতকরণের সঙ্গে মিলিয়ে আবার চেষ্টা করুন; কুরিয়ার বুক হওয়ার পরেই পার্সেল এখানে দেখা যায়।`,
  fix: 'অনুগ্রহ করে এগুলি ঠিক করুন:',
  problems: {
    required: (l) => `${l}: অনুগ্রহ করে পূরণ করুন`,
    awb_invalid: (l) => `${l}: শুধু অক্ষর, সংখ্যা ও হাইফেন, সর্বোচ্চ 40টি`,
    order_invalid: (l) => `${l}: এক লাইনে সর্বোচ্চ 100টি অক্ষর`,
    phone_invalid: (l) => `${l}: অনুগ্রহ করে 10 সংখ্যার ভারতীয় ফোন নম্বর দিন`,
    phone_mismatch: (l) => `${l}: এটি অর্ডারে দেওয়া নম্বর নয়`,
  },
  manageTitle: 'এটি কি আপনার পার্সেল?',
  manageIntro: 'আবার ডেলিভারির অনুরোধ করতে, ঠিকানা বদলাতে বা পার্সেল ফিরিয়ে দিতে অর্ডারে দেওয়া ফোন নম্বর লিখুন।',
  manageSubmit: 'এগিয়ে যান',
  another: 'অন্য পার্সেল ট্র্যাক করুন',
};

const GU: StoreWords = {
  title: 'તમારો ઓર્ડર ટ્રૅક કરો',
  intro: (brand) =>
    `તમારું ${brand} પાર્સલ શોધો: તેનો AWB (ટ્રૅકિંગ નંબર) દાખલ કરો, અથવા તમારો ઓર્ડર નંબર અને ઓર્ડર વખતે આપેલો ફોન નંબર.`,
  byAwb: 'AWB થી ટ્રૅક કરો',
  byOrder: 'ઓર્ડર નંબરથી ટ્રૅક કરો',
  labels: { awb: 'AWB (ટ્રૅકિંગ નંબર)', order_id: 'ઓર્ડર નંબર', phone: 'ઓર્ડરમાં આપેલો ફોન નંબર' },
  hints: {
    awb: 'પાર્સલ પર અને શિપમેન્ટના સંદેશમાં લખેલો હોય છે.',
    order_id: 'ઓર્ડરની પુષ્ટિમાં લખ્યા મુજબ.',
    phone: 'ઓર્ડર કરતી વખતે આપેલો 10 અંકનો નંબર.',
  },
  submit: 'ટ્રૅક કરો',
  notFound: (brand) =>
    `આ વિગતોથી ${brand}નું કોઈ શિપમેન્ટ મળ્યું નથી. તમારા ઓર્ડરની પુષ્ટિ સાથે સરખાવીને ફરી પ્રયાસ કરો; કુરિયર બુક થયા પછી જ પાર્સલ અહીં દેખાય છે.`,
  fix: 'કૃપા કરીને આ સુધારો:',
  problems: {
    required: (l) => `${l}: કૃપા કરીને ભરો`,
    awb_invalid: (l) => `${l}: ફક્ત અક્ષરો, અંકો અને હાઇફન, વધુમાં વધુ 40`,
    order_invalid: (l) => `${l}: એક લીટીમાં વધુમાં વધુ 100 અક્ષરો`,
    phone_invalid: (l) => `${l}: કૃપા કરીને 10 અંકનો ભારતીય ફોન નંબર આપો`,
    phone_mismatch: (l) => `${l}: આ ઓર્ડરમાં આપેલો નંબર નથી`,
  },
  manageTitle: 'શું આ તમારું પાર્સલ છે?',
  manageIntro: 'ફરી ડિલિવરીની વિનંતી કરવા, સરનામું બદલવા અથવા પાર્સલ નકારવા માટે ઓર્ડરમાં આપેલો ફોન નંબર દાખલ કરો.',
  manageSubmit: 'આગળ વધો',
  another: 'બીજું પાર્સલ ટ્રૅક કરો',
};

export const STORE_TEXT: Record<Language, StoreWords> = {
  en: EN,
  hi: HI,
  mr: MR,
  bn: BN,
  gu: GU,
  ta: TA,
  te: TE,
  kn: KN,
  ml: ML,
};
