import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { InsightsResponse } from '#shared/contracts/insights.ts';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#web/components/ui/table.tsx';
import { formatDuration } from '#web/lib/format.ts';
import { TabEmpty } from './tab-empty.tsx';

export function ParticipationTab({ participation }: { participation: InsightsResponse['participation'] }) {
  if (participation.speakers.length === 0) {
    return <TabEmpty title="No participation yet">Talk time per person appears here once a meeting has a transcript.</TabEmpty>;
  }
  const chart = participation.speakers.map((s) => ({ name: s.speaker, minutes: Math.round((s.talkSeconds / 60) * 10) / 10 }));
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
        <CardContent className="h-72" role="img" aria-label="Talk time chart">
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={chart} layout="vertical" margin={{ left: 16 }}>
              <CartesianGrid horizontal={false} strokeDasharray="3 3" />
              <XAxis type="number" fontSize={12} unit=" min" />
              <YAxis type="category" dataKey="name" width={130} fontSize={12} />
              <Tooltip formatter={(value) => [`${value} min`, 'Talk time']} />
              <Bar dataKey="minutes" name="Talk time" fill="hsl(221 83% 53%)" radius={[0, 4, 4, 0]} />
            </BarChart>
          </ResponsiveContainer>
        </CardContent>
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
              {participation.speakers.map((s) => (
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
