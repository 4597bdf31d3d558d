import type { ReactNode } from 'react';
import { Card, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';

/** A tab with nothing to show yet says why, and what would fill it. */
export function TabEmpty({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{children}</CardDescription>
      </CardHeader>
    </Card>
  );
}
