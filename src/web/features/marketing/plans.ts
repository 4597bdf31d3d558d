/** The pricing page's plans, exactly as spec §9 lists them (spec §3: name, price, description, features, highlighted, buttonText). */
export type Plan = {
  name: 'Free' | 'Pro' | 'Business' | 'Enterprise';
  /** The price as shown: '$12.99', or 'Custom' for Enterprise. */
  price: string;
  /** Shown after the price; absent for a custom price. */
  period?: string;
  description: string;
  features: readonly string[];
  highlighted: boolean;
  buttonText: 'Get Started' | 'Contact Sales';
};

export const PLANS: readonly Plan[] = [
  {
    name: 'Free',
    price: '$0',
    period: '/month',
    description: 'For trying Parley on your own meetings.',
    features: ['5 hours transcription per month', 'Basic sentiment analysis', '2 participants per meeting', 'Export as text', '7-day history'],
    highlighted: false,
    buttonText: 'Get Started',
  },
  {
    name: 'Pro',
    price: '$12.99',
    period: '/month',
    description: 'For professionals who live in meetings.',
    features: [
      '30 hours transcription per month',
      'Advanced sentiment analysis',
      'Unlimited participants',
      'Export as text/docx/pdf',
      'Real-time transcription',
      'Custom vocabulary',
      '30-day history',
    ],
    highlighted: true,
    buttonText: 'Get Started',
  },
  {
    name: 'Business',
    price: '$24.99',
    period: '/month',
    description: 'For teams that decide things together.',
    features: [
      '100 hours transcription per month',
      'Premium sentiment analysis by a third-party emotion AI',
      'Unlimited participants',
      'All export formats plus API access',
      'Team management',
      'Custom integrations',
      '1-year history',
      'Priority support',
    ],
    highlighted: false,
    buttonText: 'Get Started',
  },
  {
    name: 'Enterprise',
    price: 'Custom',
    description: 'For organisations with special requirements.',
    features: [
      'Unlimited hours',
      'Enterprise sentiment analysis',
      'Advanced security',
      'Dedicated account manager',
      'Custom AI model training',
      'SLA guarantees',
      'Unlimited history',
      'On-premise options',
    ],
    highlighted: false,
    buttonText: 'Contact Sales',
  },
];

/** `selfHosted`: said after the answer on a self-hosted installation, where the answer's promise of billing does not apply. */
export type FaqEntry = { question: string; answer: string; selfHosted?: string };

/** The pricing page's FAQ: the spec's claims (§9) plus the trial (§1) and self-hosting. */
export const FAQ: readonly FaqEntry[] = [
  {
    question: 'How accurate is the transcription?',
    answer: 'Transcription accuracy is over 95% for clear English audio. Background noise, crosstalk and strong accents can lower it.',
  },
  {
    question: 'Can I cancel, upgrade or downgrade at any time?',
    answer: 'Yes. You can cancel, upgrade or downgrade at any time, and you keep access to your current plan until the end of the billing period.',
    selfHosted: 'On this installation there is no subscription: it is self-hosted, nothing is billed, and every feature is included.',
  },
  {
    question: 'Is there a free trial?',
    answer: 'Yes: a free 14-day trial, no credit card required. Cancel anytime.',
    selfHosted: 'On this installation there is no trial to run out: it is self-hosted, and every feature is included.',
  },
  {
    question: 'Do you offer discounts?',
    answer: 'Yes, we offer discounts for education, non-profits and students. Contact our sales team to arrange one.',
  },
  {
    question: 'Can I run Parley on my own server?',
    answer:
      'Yes. Parley is open source and self-hostable: one command, npm start, runs it on your own machine, with your recordings, transcripts and insights stored there. Transcription runs on that server too, unless you choose to configure an external speech service.',
  },
];
