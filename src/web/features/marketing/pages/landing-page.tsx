import { ArrowRightIcon, BrainCircuitIcon, CheckIcon, ClockIcon, HeartPulseIcon, MicIcon, QuoteIcon, UsersIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { PLANS } from '../plans.ts';
import { SiteLayout } from '../site-layout.tsx';

const FEATURES = [
  {
    icon: MicIcon,
    title: 'Record any meeting',
    text: 'Record in your browser with one click, or upload a recording. Audio is saved as you go, so a dropped connection loses nothing.',
  },
  {
    icon: UsersIcon,
    title: 'Instant transcription with speaker identification',
    text: 'Every word, with who said it and when. Rename speakers once and search everything anyone ever said.',
  },
  {
    icon: BrainCircuitIcon,
    title: 'AI insights',
    text: 'Key points, action items with owners and due dates, and the decisions you made, ready the moment the meeting ends.',
  },
  {
    icon: HeartPulseIcon,
    title: 'Anonymous sentiment analysis',
    text: 'See how the conversation felt over time, per speaker, without storing anyone’s identity. Computed on your own server.',
  },
];

const TESTIMONIALS = [
  { name: 'Maya Rodriguez', role: 'Product Manager, Brightline', quote: 'I used to spend an hour after every customer call writing notes. Now I read the action items and get on with my day.' },
  { name: 'Tom Becker', role: 'Engineering Lead, Northwind', quote: 'Our standups are searchable now. When someone asks “when did we decide that?”, the answer is one search away.' },
  { name: 'Priya Nair', role: 'Founder, Studio Nine', quote: 'We run Parley on our own server. Client conversations never leave our hands, and it took two commands to set up.' },
];

/** / (spec §2): header, hero, four feature cards, three testimonials, pricing, call-to-action, footer. */
export default function LandingPage() {
  return (
    <SiteLayout>
      <section className="bg-gradient-to-b from-accent/70 to-background">
        <div className="mx-auto max-w-6xl px-4 py-20 text-center md:py-28">
          <p className="mx-auto mb-4 w-fit rounded-full border bg-background px-3 py-1 text-sm text-muted-foreground">Your voice meeting assistant</p>
          <h1 className="mx-auto max-w-3xl text-4xl font-bold tracking-tight md:text-6xl">Every meeting, recorded, transcribed and understood</h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg text-muted-foreground">
            Parley records your meetings, transcribes them instantly with speaker identification, and turns them into key points, action items and decisions. Spend your time deciding, not taking notes.
          </p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            <Button size="lg" asChild>
              <Link to="/auth">
                Start your free trial <ArrowRightIcon />
              </Link>
            </Button>
            <Button size="lg" variant="outline" asChild>
              <Link to="/demo">See a demo</Link>
            </Button>
          </div>
          <ul className="mt-6 flex flex-wrap justify-center gap-x-6 gap-y-2 text-sm text-muted-foreground">
            <li className="flex items-center gap-1.5"><CheckIcon className="size-4 text-primary" aria-hidden="true" /> Free 14-day trial</li>
            <li className="flex items-center gap-1.5"><CheckIcon className="size-4 text-primary" aria-hidden="true" /> No credit card required</li>
            <li className="flex items-center gap-1.5"><CheckIcon className="size-4 text-primary" aria-hidden="true" /> Cancel anytime</li>
          </ul>
        </div>
      </section>

      <section id="features" className="mx-auto max-w-6xl scroll-mt-20 px-4 py-20">
        <div className="mx-auto max-w-2xl text-center">
          <h2 className="text-3xl font-bold tracking-tight">Everything a meeting leaves behind</h2>
          <p className="mt-3 text-muted-foreground">Save hours every week: Parley does the listening, writing and remembering.</p>
        </div>
        <div className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {FEATURES.map((feature) => (
            <Card key={feature.title} data-testid="feature-card">
              <CardHeader>
                <feature.icon className="mb-2 size-8 text-primary" aria-hidden="true" />
                <CardTitle>{feature.title}</CardTitle>
                <CardDescription>{feature.text}</CardDescription>
              </CardHeader>
            </Card>
          ))}
        </div>
        <p className="mt-10 flex items-center justify-center gap-2 text-muted-foreground">
          <ClockIcon className="size-5 text-primary" aria-hidden="true" /> Teams save about four hours a week on meeting notes and follow-ups.
        </p>
      </section>

      <section id="testimonials" className="scroll-mt-20 bg-muted/40">
        <div className="mx-auto max-w-6xl px-4 py-20">
          <h2 className="text-center text-3xl font-bold tracking-tight">Loved by teams and professionals</h2>
          <div className="mt-12 grid gap-6 md:grid-cols-3">
            {TESTIMONIALS.map((t) => (
              <Card key={t.name} data-testid="testimonial">
                <CardContent className="grid gap-4">
                  <QuoteIcon className="size-6 text-primary" aria-hidden="true" />
                  <blockquote className="text-foreground">{t.quote}</blockquote>
                  <div>
                    <p className="font-semibold">{t.name}</p>
                    <p className="text-sm text-muted-foreground">{t.role}</p>
                  </div>
                </CardContent>
              </Card>
            ))}
          </div>
        </div>
      </section>

      <section id="pricing" className="mx-auto max-w-6xl scroll-mt-20 px-4 py-20">
        <div className="text-center">
          <h2 className="text-3xl font-bold tracking-tight">Plans for every team</h2>
          <p className="mt-3 text-muted-foreground">Start free, upgrade when you need more hours.</p>
        </div>
        <div className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {PLANS.map((plan) => (
            <div key={plan.name} className={`rounded-xl border p-5 ${plan.highlighted ? 'border-primary ring-1 ring-primary' : ''}`}>
              <p className="font-semibold">{plan.name}</p>
              <p className="mt-1 text-2xl font-bold">
                {plan.price}
                {plan.period && <span className="text-sm font-normal text-muted-foreground">{plan.period}</span>}
              </p>
              <p className="mt-2 text-sm text-muted-foreground">{plan.features[0]}</p>
            </div>
          ))}
        </div>
        <div className="mt-8 text-center">
          <Button variant="outline" asChild>
            <Link to="/pricing">Compare plans</Link>
          </Button>
        </div>
      </section>

      <section className="bg-primary text-primary-foreground">
        <div className="mx-auto max-w-4xl px-4 py-16 text-center">
          <h2 className="text-3xl font-bold tracking-tight">Ready for meetings that remember themselves?</h2>
          <p className="mt-3 opacity-90">Free 14-day trial. No credit card. Cancel anytime.</p>
          <Button size="lg" variant="secondary" className="mt-8" asChild>
            <Link to="/auth">Get started for free</Link>
          </Button>
        </div>
      </section>
    </SiteLayout>
  );
}
