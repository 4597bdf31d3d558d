/** The pricing page's plans, exactly as spec §9 lists them. */
export type Plan = {
  name: string;
  price: string;
  period?: string;
  description: string;
  features: string[];
  highlighted: boolean;
  buttonText: 'Get Started' | 'Contact Sales';
};

export const PLANS: Plan[] = [
  {
    name: 'Free',
    price: '$0',
    period: '/month',
    description: 'For trying Parley on your own meetings.',
    features: ['5 hours of transcription per month', 'Basic sentiment analysis', '2 participants per meeting', 'Export as text', '7-day history'],
    highlighted: false,
    buttonText: 'Get Started',
  },
  {
    name: 'Pro',
    price: '$12.99',
    period: '/month',
    description: 'For professionals who live in meetings.',
    features: [
      '30 hours of transcription per month',
      'Advanced sentiment analysis',
      'Unlimited participants',
      'Export as text, docx and pdf',
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
      '100 hours of transcription per month',
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

export const FAQ = [
  {
    question: 'How accurate is the transcription?',
    answer: 'Over 95% accuracy for clear English audio. Accuracy depends on audio quality, accents and background noise.',
  },
  {
    question: 'Can I cancel, upgrade or downgrade at any time?',
    answer: 'Yes. Change or cancel your plan whenever you like; you keep access until the end of your billing period.',
  },
  {
    question: 'Is there a free trial?',
    answer: 'Every paid plan starts with a free 14-day trial. No credit card required, cancel anytime.',
  },
  {
    question: 'Do you offer discounts?',
    answer: 'Yes, for education, non-profits and students. Contact our sales team to arrange it.',
  },
  {
    question: 'Can I run Parley on my own server?',
    answer: 'Yes. Parley is open source and self-hostable: two commands start it on your own machine, and your recordings never leave it.',
  },
];
