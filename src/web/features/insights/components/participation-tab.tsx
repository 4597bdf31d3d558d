import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { InsightsResponse } from '#shared/contracts/insights.ts';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#web/components/ui/table.tsx';
import { formatDuration } from '#web/lib/format.ts';
import { SpeakerPagesNav, useSpeakerPages } from './speaker-pages.tsx';
import { TabEmpty } from './tab-empty.tsx';
/** Height of one bar's row in the chart, its name included. */
const BAR_ROW_PX = 36;

/**
 * Talk time per speaker, every speaker: the chart a page of them at a time (each bar named), the
 * table all of them. Speakers come most talk first.
 */
export function ParticipationTab({ participation }: { participation: InsightsResponse['participation'] }) {
  const { speakers } = participation;
  const pages = useSpeakerPages(speakers);
  if (speakers.length === 0) {
    return <TabEmpty title="No participation yet">Talk time per person appears here once a meeting has a transcript.</TabEmpty>;
  }
  const { shown, range } = pages;
  const chart = shown.map((s) => ({ name: s.speaker, minutes: Math.round((s.talkSeconds / 60) * 10) / 10 }));
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
        <SpeakerPagesNav label="Chart pages" pages={pages} />
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
