import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_RECORDING_OPTIONS, type RecordingOptions } from '#shared/contracts/meetings.ts';
import { stubAppConfig } from '#tests/support/web/app-config.ts';
import { RecordingOptionsPanel } from './recording-options.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function Panel() {
  const [options, setOptions] = useState<RecordingOptions>({ ...DEFAULT_RECORDING_OPTIONS, emotionalAnalysis: false });
  return <RecordingOptionsPanel value={options} onChange={setOptions} />;
}

const emotionSwitch = () => screen.getByRole('switch', { name: 'Anonymous Emotional Analysis' });

describe('the privacy dialog of Anonymous Emotional Analysis (spec §2 /record)', () => {
  it('without a provider: sentiment is computed on this server and nothing leaves it', async () => {
    stubAppConfig();
    render(<Panel />);
    screen.getByText('How the conversation felt, without identities.');
    fireEvent.click(emotionSwitch());
    const dialog = await screen.findByRole('dialog', { name: 'Anonymous emotional analysis' });
    expect(dialog.textContent).toContain('Sentiment is computed on this Parley server from the words of the transcript');
    expect(dialog.textContent).toContain('Nothing leaves the server for this: the recording and the transcript are not sent to any third-party service.');
    expect(dialog.textContent).not.toContain('emotion-detection service');
  });

  it('with the operator’s provider: names its host, says only anonymised text goes there, and Turn it off turns the option off', async () => {
    stubAppConfig({ emotionProviderHost: 'emotion.example.com' });
    render(<Panel />);
    // On by default: the option itself says where its text goes, before any dialog.
    screen.getByText('How the conversation felt, without identities: the transcript’s text, anonymised, is scored by emotion.example.com.');
    fireEvent.click(emotionSwitch());
    const dialog = await screen.findByRole('dialog', { name: 'Anonymous emotional analysis' });
    expect(dialog.textContent).toContain(
      'Sentiment is computed by the emotion-detection service this installation’s operator chose, at emotion.example.com. While this option is on, Parley sends it the text of the transcript with names, email addresses and numbers removed: never the recording, and never who said what.',
    );
    expect(dialog.textContent).toContain('Turn this off and nothing of the meeting is sent to emotion.example.com.');
    fireEvent.click(screen.getByRole('button', { name: 'Turn it off' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(emotionSwitch().getAttribute('aria-checked')).toBe('false');
  });
});
