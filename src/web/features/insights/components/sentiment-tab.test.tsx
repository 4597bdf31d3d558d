import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { InsightsResponse } from '#shared/contracts/insights.ts';
import { SentimentTab } from './sentiment-tab.tsx';

afterEach(cleanup);

const names = Array.from({ length: 14 }, (_, i) => `Person ${String(i + 1).padStart(2, '0')}`);
const sentiment: InsightsResponse['sentiment'] = {
  analysedMeetings: 1,
  overall: { positive: 14, neutral: 0, negative: 0 },
  byMeeting: [],
  bySpeaker: names.map((speaker) => ({ speaker, score: 0.5, turns: { positive: 1, neutral: 0, negative: 0 } })),
};

const listed = () =>
  within(screen.getByRole('list', { name: 'Sentiment by speaker' }))
    .getAllByRole('listitem')
    .map((item) => item.textContent);

describe('sentiment by speaker', () => {
  it('lists every speaker, ten at a time with Previous and Next (it stopped at 12, saying nothing of the rest)', () => {
    render(<SentimentTab sentiment={sentiment} />);
    const pages = screen.getByRole('navigation', { name: 'Speaker pages' });
    expect(within(pages).getByText('Speakers 1–10 of 14')).toBeTruthy();
    expect(listed()).toEqual(names.slice(0, 10).map((name) => `${name}Positive · 1 turns`));
    expect(within(pages).getByRole('button', { name: 'Previous' }).hasAttribute('disabled')).toBe(true);

    fireEvent.click(within(pages).getByRole('button', { name: 'Next' }));
    expect(within(pages).getByText('Speakers 11–14 of 14')).toBeTruthy();
    expect(listed()).toEqual(names.slice(10).map((name) => `${name}Positive · 1 turns`));
    expect(within(pages).getByRole('button', { name: 'Next' }).hasAttribute('disabled')).toBe(true);
  });

  it('shows no pages when one page holds every speaker', () => {
    render(<SentimentTab sentiment={{ ...sentiment, bySpeaker: sentiment.bySpeaker.slice(0, 3) }} />);
    expect(listed()).toHaveLength(3);
    expect(screen.queryByRole('navigation', { name: 'Speaker pages' })).toBeNull();
  });
});
