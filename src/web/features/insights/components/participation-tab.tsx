import { ChevronLeftIcon, ChevronRightIcon } from 'lucide-react';
import { useState } from 'react';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { InsightsResponse } from '#shared/contracts/insights.ts';
import { totalPages } from '#web/components/pagination.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#web/components/ui/table.tsx';
import { formatDuration } from '#web/lib/format.ts';
import { TabEmpty } from './tab-empty.tsx';

/** Speakers per page of the chart: each bar keeps its name beside it and the chart a readable height. */
export const CHART_PAGE_SIZE = 10;
/** Height of one bar's row in the chart, its name included. */
const BAR_ROW_PX = 36;

/**
 * Talk time per speaker, every speaker: the chart a page of them at a time (each bar named), the
 * table all of them. Speakers come most talk first.
 */
export function ParticipationTab({ participation }: { participation: InsightsResponse['participation'] }) {
  const [page, setPage] = useState(1);
  const { speakers } = participation;
  if (speakers.length === 0) {
    return <TabEmpty title="No participation yet">Talk time per person appears here once a meeting has a transcript.</TabEmpty>;
  }
  const pages = totalPages(speakers.length, CHART_PAGE_SIZE);
  const current = Math.min(page, pages);
  const first = (current - 1) * CHART_PAGE_SIZE;
  const shown = speakers.slice(first, first + CHART_PAGE_SIZE);
  const chart = shown.map((s) => ({ name: s.speaker, minutes: Math.round((s.talkSeconds / 60) * 10) / 10 }));
  const range = `${first + 1}–${first + shown.length} of ${speakers.length}`;
  return (
    <div className="grid gap-4">
      <Card>
        <CardHeader>
          <CardTitle>Talk time</CardTitle>
          <CardDescription>
            Who spoke how much, across {formatDuration(participation.totalTalkSeconds)} of transcribed speech. Rename speakers on a meeting’s page to count them
            here by name.
          </CardDescription>
        </CardHeader>
        <CardContent style={{ height: shown.length * BAR_ROW_PX + 48 }} role="img" aria-label={`Talk time chart, speakers ${range}`}>
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={chart} layout="vertical" margin={{ left: 16 }}>
              <CartesianGrid horizontal={false} strokeDasharray="3 3" />
              <XAxis type="number" fontSize={12} unit=" min" />
              {/* interval 0: every bar keeps its name (recharts otherwise drops labels it thinks crowded). */}
              <YAxis type="category" dataKey="name" width={130} fontSize={12} interval={0} />
              <Tooltip formatter={(value) => [`${value} min`, 'Talk time']} />
              <Bar dataKey="minutes" name="Talk time" fill="hsl(221 83% 53%)" radius={[0, 4, 4, 0]} />
            </BarChart>
          </ResponsiveContainer>
        </CardContent>
        {pages > 1 && (
          <nav aria-label="Chart pages" className="flex items-center justify-between gap-2 px-6">
            <Button variant="outline" size="sm" disabled={current === 1} onClick={() => setPage(current - 1)}>
              <ChevronLeftIcon aria-hidden="true" />
              Previous
            </Button>
            <p className="text-sm text-muted-foreground" aria-live="polite">
              Speakers {range}
            </p>
            <Button variant="outline" size="sm" disabled={current === pages} onClick={() => setPage(current + 1)}>
              Next
              <ChevronRightIcon aria-hidden="true" />
            </Button>
          </nav>
        )}
      </Card>
      <Card>
        <CardContent className="pt-6">
          <Table aria-label="Participation">
            <TableHeader>
              <TableRow>
                <TableHead>Speaker</TableHead>
                <TableHead>Talk time</TableHead>
                <TableHead>Share</TableHead>
                <TableHead>Turns</TableHead>
                <TableHead>Meetings</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {speakers.map((s) => (
                <TableRow key={s.speaker}>
                  <TableCell className="font-medium">{s.speaker}</TableCell>
                  <TableCell>{formatDuration(s.talkSeconds)}</TableCell>
                  <TableCell>{Math.round(s.share * 100)}%</TableCell>
                  <TableCell>{s.turns}</TableCell>
                  <TableCell>{s.meetings}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </CardContent>
      </Card>
    </div>
  );
}
