import {
  ArrowRightIcon,
  BrainCircuitIcon,
  CheckIcon,
  ClockIcon,
  HeartPulseIcon,
  ListChecksIcon,
  MicIcon,
  QuoteIcon,
  ServerIcon,
  SparklesIcon,
  UsersIcon,
} from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { cn } from '#web/lib/utils.ts';
import { SELF_HOSTED_MESSAGES, SelfHostedNote } from '#web/components/self-hosted-note.tsx';
import { PLANS } from '../plans.ts';
import { SiteLayout } from '../site-layout.tsx';
import { useHashScroll } from '../use-hash-scroll.ts';
import { paths } from '#web/app/paths.ts';

const FEATURES = [
  {
    icon: MicIcon,
    title: 'Record any meeting',
    text: 'Record in your browser with one click — start, pause, resume, stop — or upload a recording you already have.',
  },
  {
    icon: UsersIcon,
    title: 'Instant transcription with speaker identification',
    text: 'Every word with who said it and when, searchable across all your meetings.',
  },
  {
    icon: BrainCircuitIcon,
    title: 'AI insights',
    text: 'Key points, action items and the decisions you made, ready when the meeting ends — plus topics and who spoke how much.',
  },
  {
    icon: HeartPulseIcon,
    title: 'Anonymous sentiment analysis',
    text: 'See how the conversation felt over time without judging anyone personally. Computed on your own server, not sent to a third party.',
  },
] as const;

const STEPS = [
  { icon: MicIcon, title: 'Record or upload', text: 'Allow the microphone and press Start, or upload an existing recording.' },
  { icon: SparklesIcon, title: 'Get the transcript', text: 'Parley writes down every word and tells the speakers apart.' },
  { icon: ListChecksIcon, title: 'Act on the insights', text: 'Key points, action items and decisions — no notes to write up.' },
] as const;

const TESTIMONIALS = [
  {
    name: 'Maya Rodriguez',
    role: 'Product Manager, Brightline',
    quote: 'I used to spend an hour after every customer call writing notes. Now I read the action items and get on with my day.',
  },
  {
    name: 'Tom Becker',
    role: 'Engineering Lead, Northwind',
    quote: 'Our stand-ups are searchable now. When someone asks “when did we decide that?”, the answer is one search away.',
  },
  {
    name: 'Priya Nair',
    role: 'Founder, Studio Nine',
    quote: 'We run Parley on our own server, so client conversations stay with us. Setting it up took one command.',
  },
] as const;

const initials = (name: string) =>
  name
    .split(' ')
    .map((part) => part[0] ?? '')
    .join('')
    .slice(0, 2);

/** / (spec §2): header, hero, four feature cards, three testimonials, pricing, call-to-action, footer. */
export function LandingPage() {
  useHashScroll();
  return (
    <SiteLayout>
      <section className="relative overflow-hidden border-b">
        <div aria-hidden="true" className="pointer-events-none absolute inset-0 bg-gradient-to-b from-accent/80 via-background to-background" />
        <div aria-hidden="true" className="pointer-events-none absolute -top-40 left-1/2 size-[36rem] -translate-x-1/2 rounded-full bg-primary/10 blur-3xl" />
        <div className="relative mx-auto max-w-6xl px-4 py-20 text-center sm:px-6 md:py-28">
          <Badge variant="outline" className="mb-6 gap-1.5 bg-background px-3 py-1 text-sm font-normal text-muted-foreground">
            <SparklesIcon className="text-primary" aria-hidden="true" /> Your voice meeting assistant
          </Badge>
          <h1 className="mx-auto max-w-3xl text-4xl font-bold tracking-tight text-balance sm:text-5xl md:text-6xl">
            Every meeting recorded, transcribed and <span className="text-primary">understood</span>
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg text-pretty text-muted-foreground">
            Parley records your meetings, transcribes them instantly with speaker identification, and turns them into key points, action items and decisions.
            Spend your time deciding, not taking notes.
          </p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            <Button size="lg" asChild>
              <Link to={paths.auth.href('signup')}>
                Start your free trial <ArrowRightIcon aria-hidden="true" />
              </Link>
            </Button>
            <Button size="lg" variant="outline" asChild>
              <Link to={paths.demo.href()}>See a demo</Link>
            </Button>
          </div>
          <ul className="mt-6 flex flex-wrap justify-center gap-x-6 gap-y-2 text-sm text-muted-foreground">
            {['Free 14-day trial', 'No credit card required', 'Cancel anytime'].map((item) => (
              <li key={item} className="flex items-center gap-1.5">
                <CheckIcon className="size-4 text-primary" aria-hidden="true" /> {item}
              </li>
            ))}
          </ul>
          <SelfHostedNote detail={SELF_HOSTED_MESSAGES.noTrial} className="mt-4" />
        </div>
      </section>

      <section id="features" className="mx-auto max-w-6xl scroll-mt-20 px-4 py-20 sm:px-6">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-medium text-primary">Features</p>
          <h2 className="mt-2 text-3xl font-bold tracking-tight text-balance">Everything a meeting leaves behind</h2>
          <p className="mt-3 text-muted-foreground">Parley does the listening, the writing and the remembering.</p>
        </div>
        <div className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {FEATURES.map((feature) => (
            <Card key={feature.title} data-testid="feature-card" className="transition-shadow hover:shadow-md">
              <CardHeader>
                <div className="mb-3 flex size-11 items-center justify-center rounded-lg bg-primary/10">
                  <feature.icon className="size-6 text-primary" aria-hidden="true" />
                </div>
                <CardTitle className="text-lg leading-snug">
                  <h3>{feature.title}</h3>
                </CardTitle>
                <CardDescription className="leading-relaxed">{feature.text}</CardDescription>
              </CardHeader>
            </Card>
          ))}
        </div>
      </section>

      <section aria-labelledby="how-it-works" className="border-y bg-muted/40">
        <div className="mx-auto grid max-w-6xl gap-12 px-4 py-20 sm:px-6 lg:grid-cols-[1fr_1.4fr] lg:items-center">
          <div>
            <h2 id="how-it-works" className="text-3xl font-bold tracking-tight text-balance">
              Hours back every week
            </h2>
            <p className="mt-3 text-muted-foreground">
              No more writing up minutes, chasing who promised what, or rewatching a call to find one decision. Parley gives you the meeting in the time it
              takes to read it.
            </p>
            <p className="mt-6 flex items-center gap-2 text-sm text-muted-foreground">
              <ServerIcon className="size-4 text-primary" aria-hidden="true" /> Open source and self-hostable: recordings stay on the server you choose.
            </p>
          </div>
          <ol className="grid gap-4 sm:grid-cols-3 lg:grid-cols-1">
            {STEPS.map((step, index) => (
              <li key={step.title} className="flex gap-4 rounded-xl border bg-background p-5 shadow-xs">
                <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground">
                  {index + 1}
                </span>
                <div>
                  <p className="flex items-center gap-2 font-semibold">
                    <step.icon className="size-4 text-primary" aria-hidden="true" /> {step.title}
                  </p>
                  <p className="mt-1 text-sm text-muted-foreground">{step.text}</p>
                </div>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section id="testimonials" className="scroll-mt-20">
        <div className="mx-auto max-w-6xl px-4 py-20 sm:px-6">
          <div className="mx-auto max-w-2xl text-center">
            <p className="text-sm font-medium text-primary">Testimonials</p>
            <h2 className="mt-2 text-3xl font-bold tracking-tight text-balance">Loved by teams and professionals</h2>
          </div>
          <div className="mt-12 grid gap-6 md:grid-cols-3">
            {TESTIMONIALS.map((t) => (
              <Card key={t.name} data-testid="testimonial" className="justify-between">
                <CardContent className="grid gap-4">
                  <QuoteIcon className="size-6 text-primary/70" aria-hidden="true" />
                  <blockquote className="leading-relaxed text-foreground">{t.quote}</blockquote>
                </CardContent>
                <CardContent className="flex items-center gap-3">
                  <span
                    aria-hidden="true"
                    className="flex size-10 items-center justify-center rounded-full bg-accent text-sm font-semibold text-accent-foreground"
                  >
                    {initials(t.name)}
                  </span>
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

      <section id="pricing" className="scroll-mt-20 border-t bg-muted/40">
        <div className="mx-auto max-w-6xl px-4 py-20 sm:px-6">
          <div className="mx-auto max-w-2xl text-center">
            <p className="text-sm font-medium text-primary">Pricing</p>
            <h2 className="mt-2 text-3xl font-bold tracking-tight text-balance">Plans for every team</h2>
            <p className="mt-3 text-muted-foreground">
              Start free and upgrade when you need more hours — with a free 14-day trial and no credit card required.
            </p>
            <SelfHostedNote detail={SELF_HOSTED_MESSAGES.plansNotSold} className="mt-3" />
          </div>
          <div className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {PLANS.map((plan) => (
              <div key={plan.name} className={cn('rounded-xl border bg-background p-5 shadow-xs', plan.highlighted && 'border-primary ring-1 ring-primary')}>
                <div className="flex items-center justify-between gap-2">
                  <h3 className="font-semibold">{plan.name}</h3>
                  {plan.highlighted && <Badge>Most popular</Badge>}
                </div>
                <p className="mt-2 text-2xl font-bold">
                  {plan.price}
                  {plan.period && <span className="text-sm font-normal text-muted-foreground">{plan.period}</span>}
                </p>
                <p className="mt-2 flex items-center gap-1.5 text-sm text-muted-foreground">
                  <ClockIcon className="size-3.5 shrink-0" aria-hidden="true" /> {plan.features[0]}
                </p>
              </div>
            ))}
          </div>
          <div className="mt-8 text-center">
            <Button variant="outline" asChild>
              <Link to={paths.pricing.href()}>
                Compare plans <ArrowRightIcon aria-hidden="true" />
              </Link>
            </Button>
          </div>
        </div>
      </section>

      <section className="bg-primary text-primary-foreground">
        <div className="mx-auto max-w-4xl px-4 py-16 text-center sm:px-6">
          <h2 className="text-3xl font-bold tracking-tight text-balance">Ready for meetings that remember themselves?</h2>
          <p className="mt-3 opacity-90">Free 14-day trial. No credit card required. Cancel anytime.</p>
          <SelfHostedNote className="mt-2 text-primary-foreground opacity-90 [&>svg]:text-primary-foreground" />
          <Button size="lg" variant="secondary" className="mt-8" asChild>
            <Link to={paths.auth.href('signup')}>
              Start your free trial <ArrowRightIcon aria-hidden="true" />
            </Link>
          </Button>
        </div>
      </section>
    </SiteLayout>
  );
}
