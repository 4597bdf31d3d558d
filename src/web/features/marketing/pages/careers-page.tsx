import { ContentPage } from '../site-layout.tsx';

export function CareersPage() {
  return (
    <ContentPage eyebrow="Careers" title="Work on Parley" lead="Parley is built in the open, and everyone is welcome to help.">
      <section>
        <h2>Open positions</h2>
        <p>There are no open positions listed at the moment.</p>
      </section>
      <section>
        <h2>Contribute instead</h2>
        <p>Open-source contributions are welcome, large and small:</p>
        <ul>
          <li>report a bug, or a meeting that was transcribed badly, with steps to reproduce it;</li>
          <li>improve transcription, speaker identification or insights, and show the effect with a measurement;</li>
          <li>fix an open issue in the project’s repository, or improve the documentation.</li>
        </ul>
        <p>
          Every change comes with tests. <code>npm test</code> runs them all, and the README explains how the project is laid out.
        </p>
      </section>
    </ContentPage>
  );
}
