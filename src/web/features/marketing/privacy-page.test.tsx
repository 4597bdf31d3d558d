import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubAppConfig } from '#tests/support/web/app-config.ts';
import { PrivacyPage } from './pages/privacy-page.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const page = () => {
  render(
    <MemoryRouter initialEntries={['/privacy']}>
      <PrivacyPage />
    </MemoryRouter>,
  );
  return screen.getByRole('main').textContent ?? '';
};

describe('/privacy says what leaves this installation (/app-config.js)', () => {
  it('with nothing configured: nothing about how people use Parley is collected, and no provider is named', () => {
    stubAppConfig();
    const text = page();
    expect(text).toContain('Nothing about how you use Parley is collected: no error reports and no usage data leave this installation.');
    expect(text).not.toContain('to rate its tone');
  });

  it('with collectors and an emotion provider: names each host and what goes there, and that the switches decide', () => {
    stubAppConfig({
      errorReporting: true,
      errorReportingHost: 'glitchtip.example.com',
      usageAnalytics: true,
      usageAnalyticsHost: 'otel.example.com',
      emotionProviderHost: 'emotion.example.com',
    });
    const text = page();
    expect(text).toContain('The operator collects, only while your Settings › Privacy switches allow it:');
    expect(text).toContain('(Error Reporting, sent to glitchtip.example.com);');
    expect(text).toContain('(Anonymized Feature Usage, sent to otel.example.com).');
    expect(text).toContain('is sent to emotion.example.com to rate its tone.');
    expect(text).not.toContain('Nothing about how you use Parley is collected');
  });
});
