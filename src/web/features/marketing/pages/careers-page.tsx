import { ContentPage } from '../site-layout.tsx';

export default function CareersPage() {
  return (
    <ContentPage title="Careers" lead="Parley is built in the open, and everyone is welcome to help.">
      <section>
        <h2>Open positions</h2>
        <p>There are no open positions listed at the moment.</p>
      </section>
      <section>
        <h2>Contribute</h2>
        <p>
          The best way to work on Parley is to contribute: report bugs, improve transcription quality, translate the interface, or pick an open issue in the project’s repository. Every change
          comes with tests, and the README explains how to run them.
        </p>
      </section>
    </ContentPage>
  );
}
