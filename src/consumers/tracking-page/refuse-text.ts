import type { Language } from '../../domain/buyer-copy/page-text.js';

/** The page's "send it back" choice after a failed delivery, in its language (English where it has no words yet). */
export interface RefuseText {
  title: string;
  intro: string;
  confirm: string;
  submit: string;
  /** The box was not ticked: nothing is sent back on a slip of the thumb. */
  notConfirmed: string;
  /** The parcel moved on (another scan, a reattempt already asked, the store's own action). */
  tooLate: string;
}

const REFUSE: Partial<Record<Language, RefuseText>> = {
  en: {
    title: 'Do not want the parcel?',
    intro: 'You can refuse it: the courier will not try again and the parcel goes back to the store.',
    confirm: 'Yes, I do not want this parcel: send it back to the store',
    submit: 'Refuse the delivery',
    notConfirmed: 'Tick the box to confirm that the parcel should go back to the store',
    tooLate: 'This delivery can no longer be refused here: please contact the store',
  },
  hi: {
    title: 'पार्सल नहीं चाहिए?',
    intro: 'आप इसे मना कर सकते हैं: कूरियर फिर से कोशिश नहीं करेगा और पार्सल स्टोर को वापस जाएगा।',
    confirm: 'हाँ, मुझे यह पार्सल नहीं चाहिए: इसे स्टोर को वापस भेजें',
    submit: 'डिलीवरी मना करें',
    notConfirmed: 'पार्सल को स्टोर को वापस भेजने की पुष्टि के लिए बॉक्स पर निशान लगाएँ',
    tooLate: 'यह डिलीवरी अब यहाँ मना नहीं की जा सकती: कृपया स्टोर से संपर्क करें',
  },
};

export const refuseText = (language: Language): RefuseText => REFUSE[language] ?? REFUSE.en!;
