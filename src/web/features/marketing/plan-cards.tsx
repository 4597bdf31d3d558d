import { CheckIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from '#web/components/ui/card.tsx';
import { cn } from '#web/lib/utils.ts';
import { PLANS } from './plans.ts';
import { paths } from '#web/app/paths.ts';

/** The four plan cards; every button leads to /dashboard (spec §2 /pricing). */
export function PlanCards() {
  return (
    <div className="grid gap-6 pt-3 md:grid-cols-2 xl:grid-cols-4">
      {PLANS.map((plan) => (
        <Card
          key={plan.name}
          data-testid="plan-card"
          className={cn('relative', plan.highlighted && 'border-primary shadow-lg ring-1 ring-primary xl:-mt-3 xl:mb-3')}
        >
          {plan.highlighted && <Badge className="absolute -top-3 left-1/2 -translate-x-1/2 px-3 py-1">Most popular</Badge>}
          <CardHeader className="gap-3">
            <h3 className="text-lg font-semibold">{plan.name}</h3>
            <p className="flex items-baseline gap-1">
              <span className="text-4xl font-bold tracking-tight">{plan.price}</span>
              {plan.period && <span className="text-muted-foreground">{plan.period}</span>}
            </p>
            <CardDescription>{plan.description}</CardDescription>
          </CardHeader>
          <CardContent className="flex-1">
            <ul className="grid gap-2.5 text-sm">
              {plan.features.map((feature) => (
                <li key={feature} className="flex gap-2">
                  <CheckIcon className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
                  <span>{feature}</span>
                </li>
              ))}
            </ul>
          </CardContent>
          <CardFooter>
            <Button className="w-full" size="lg" variant={plan.highlighted ? 'default' : 'outline'} asChild>
              <Link to={paths.dashboard.href()}>{plan.buttonText}</Link>
            </Button>
          </CardFooter>
        </Card>
      ))}
    </div>
  );
}
