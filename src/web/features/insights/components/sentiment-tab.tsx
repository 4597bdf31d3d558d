import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { InsightsResponse, SentimentMix } from '#shared/contracts/insights.ts';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { MeetingLink } from './meeting-link.tsx';
import { SpeakerPagesNav, useSpeakerPages } from './speaker-pages.tsx';
import { TabEmpty } from './tab-empty.tsx';

const COLORS = { positive: 'hsl(142 71% 40%)', neutral: 'hsl(220 9% 65%)', negative: 'hsl(0 72% 51%)' } as const;

const total = (mix: SentimentMix) => mix.positive + mix.neutral + mix.negative;
const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 100));

/** Words for a mean score, with the thresholds the server classifies turns by. */
export function moodOf(score: number): 'Positive' | 'Neutral' | 'Negative' {
  if (score > 0.05) return 'Positive';
  if (score < -0.05) return 'Negative';
  return 'Neutral';
}

const shortTitle = (title: string) => (title.length > 18 ? `${title.slice(0, 17)}…` : title);

export function SentimentTab({ sentiment }: { sentiment: InsightsResponse['sentiment'] }) {
  const speakerPages = useSpeakerPages(sentiment.bySpeaker);
  if (sentiment.analysedMeetings === 0) {
    return (
      <TabEmpty title="No sentiment yet">
        Sentiment is computed from the words of meetings recorded with Anonymous Emotional Analysis on; it appears here once such a meeting is transcribed.
      </TabEmpty>
    );
  }
  const all = total(sentiment.overall);
  const chart = sentiment.byMeeting.map((m) => ({ name: shortTitle(m.meeting.title), ...m.turns }));
  return (
    <div className="grid gap-4">
      <div className="grid gap-4 sm:grid-cols-3">
        {(['positive', 'neutral', 'negative'] as const).map((mood) => (
          <Card key={mood}>
            <CardHeader>
              <CardDescription className="capitalize">{mood}</CardDescription>
              <CardTitle className="text-3xl">{percent(sentiment.overall[mood], all)}%</CardTitle>
            </CardHeader>
            <CardContent className="text-sm text-muted-foreground">
              {sentiment.overall[mood]} of {all} speaker turns
            </CardContent>
          </Card>
        ))}
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Sentiment by meeting</CardTitle>
          <CardDescription>
            Speaker turns by tone in your {sentiment.byMeeting.length} most recent analysed meetings, computed on this server from the transcript’s words.
          </CardDescription>
        </CardHeader>
        <CardContent className="h-72" role="img" aria-label="Sentiment by meeting chart">
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={chart}>
              <CartesianGrid vertical={false} strokeDasharray="3 3" />
              <XAxis dataKey="name" tickLine={false} fontSize={12} />
              <YAxis allowDecimals={false} width={32} fontSize={12} />
              <Tooltip />
              <Legend />
              <Bar dataKey="positive" name="Positive" stackId="mood" fill={COLORS.positive} />
              <Bar dataKey="neutral" name="Neutral" stackId="mood" fill={COLORS.neutral} />
              <Bar dataKey="negative" name="Negative" stackId="mood" fill={COLORS.negative} />
            </BarChart>
          </ResponsiveContainer>
        </CardContent>
      </Card>
      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>By speaker</CardTitle>
            <CardDescription>The overall tone of each person’s turns.</CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="grid gap-2" aria-label="Sentiment by speaker">
              {speakerPages.shown.map((s) => (
                <li key={s.speaker} className="flex items-center justify-between gap-2 text-sm">
                  <span>{s.speaker}</span>
                  <span className="text-muted-foreground">
                    {moodOf(s.score)} · {total(s.turns)} turns
                  </span>
                </li>
              ))}
            </ul>
          </CardContent>
          <SpeakerPagesNav label="Speaker pages" pages={speakerPages} />
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Recent meetings</CardTitle>
            <CardDescription>Newest first.</CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="grid gap-2" aria-label="Sentiment of recent meetings">
              {[...sentiment.byMeeting].reverse().map((m) => (
                <li key={m.meeting.id} className="flex items-center justify-between gap-2">
                  <MeetingLink meeting={m.meeting} />
                  <span className="text-sm">{moodOf(m.score)}</span>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
