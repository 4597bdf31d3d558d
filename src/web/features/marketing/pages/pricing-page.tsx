import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from '#web/components/ui/accordion.tsx';
import { PlanCards } from '../plan-cards.tsx';
import { FAQ } from '../plans.ts';
import { SiteLayout } from '../site-layout.tsx';

/** /pricing (spec §2, §9). */
export default function PricingPage() {
  return (
    <SiteLayout>
      <section className="mx-auto max-w-6xl px-4 py-16 text-center">
        <h1 className="text-4xl font-bold tracking-tight md:text-5xl">Simple, transparent pricing</h1>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-muted-foreground">Start free. Every paid plan comes with a 14-day free trial, no credit card required. Cancel anytime.</p>
      </section>
      <section className="mx-auto max-w-6xl px-4 pb-16">
        <PlanCards />
      </section>
      <section className="mx-auto max-w-3xl px-4 pb-20">
        <h2 className="mb-6 text-center text-2xl font-bold">Frequently asked questions</h2>
        <Accordion type="single" collapsible>
          {FAQ.map((item) => (
            <AccordionItem key={item.question} value={item.question}>
              <AccordionTrigger>{item.question}</AccordionTrigger>
              <AccordionContent className="text-muted-foreground">{item.answer}</AccordionContent>
            </AccordionItem>
          ))}
        </Accordion>
      </section>
    </SiteLayout>
  );
}
