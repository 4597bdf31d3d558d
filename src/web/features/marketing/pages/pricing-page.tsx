import { CheckIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from '#web/components/ui/accordion.tsx';
import { SELF_HOSTED_MESSAGES, SelfHostedNote } from '#web/components/self-hosted-note.tsx';
import { installation } from '#web/lib/config.ts';
import { PlanCards } from '../plan-cards.tsx';
import { FAQ } from '../plans.ts';
import { SiteLayout } from '../site-layout.tsx';
import { paths } from '#web/app/paths.ts';

/** /pricing (spec §2, §9): hero, four plan cards, FAQ. */
export function PricingPage() {
  const selfHosted = !installation().billing;
  return (
    <SiteLayout>
      <section className="border-b bg-gradient-to-b from-accent/70 to-background">
        <div className="mx-auto max-w-6xl px-4 py-16 text-center sm:px-6 md:py-20">
          <p className="text-sm font-medium text-primary">Pricing</p>
          <h1 className="mt-2 text-4xl font-bold tracking-tight text-balance md:text-5xl">Simple, transparent pricing</h1>
          <p className="mx-auto mt-4 max-w-2xl text-lg text-pretty text-muted-foreground">
            Choose the plan that fits how much you meet. Change it whenever your needs change.
          </p>
          <ul className="mt-6 flex flex-wrap justify-center gap-x-6 gap-y-2 text-sm text-muted-foreground">
            {['Free 14-day trial', 'No credit card required', 'Cancel anytime'].map((item) => (
              <li key={item} className="flex items-center gap-1.5">
                <CheckIcon className="size-4 text-primary" aria-hidden="true" /> {item}
              </li>
            ))}
          </ul>
          <SelfHostedNote detail={SELF_HOSTED_MESSAGES.plansNotSold} className="mt-4" />
        </div>
      </section>
      <section aria-label="Plans" className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
        <PlanCards />
      </section>
      <section aria-labelledby="faq" className="mx-auto max-w-3xl px-4 pb-20 sm:px-6">
        <h2 id="faq" className="mb-6 text-center text-2xl font-bold tracking-tight md:text-3xl">
          Frequently asked questions
        </h2>
        <Accordion type="single" collapsible className="rounded-xl border bg-card px-5">
          {FAQ.map((item) => (
            <AccordionItem key={item.question} value={item.question}>
              <AccordionTrigger className="text-base">{item.question}</AccordionTrigger>
              <AccordionContent className="leading-relaxed text-muted-foreground">
                {item.answer}
                {item.selfHosted && selfHosted && <span className="mt-2 block text-foreground"> {item.selfHosted}</span>}
              </AccordionContent>
            </AccordionItem>
          ))}
        </Accordion>
        <p className="mt-6 text-center text-sm text-muted-foreground">
          Another question?{' '}
          <Link to={paths.help.href()} className="font-medium text-primary underline-offset-4 hover:underline">
            Read the help pages
          </Link>{' '}
          or{' '}
          <Link to={paths.contact.href()} className="font-medium text-primary underline-offset-4 hover:underline">
            get in touch
          </Link>
          .
        </p>
      </section>
    </SiteLayout>
  );
}
