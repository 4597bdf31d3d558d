import { ContentPage } from '../site-layout.tsx';

export function AboutPage() {
  return (
    <ContentPage eyebrow="About" title="About Parley" lead="A voice meeting assistant you can own.">
      <section>
        <h2>What Parley is</h2>
        <p>
          Parley records meetings in the browser or takes an uploaded recording, transcribes it with speaker identification, and derives insights — key points,
          action items, decisions, topics, sentiment and participation — that people can search, share and act on. It is built for teams and for individual
          professionals who spend much of their week in meetings.
        </p>
      </section>
      <section>
        <h2>Why open source and self-hosted</h2>
        <p>
          Meetings hold some of the most sensitive conversations an organisation has. Parley is MIT-licensed and self-hostable, so you can read every line of
          code that touches your recordings and run it on hardware you trust. By default it transcribes on that same server, with no third-party service
          involved.
        </p>
      </section>
      <section>
        <h2>How it is built</h2>
        <p>
          One Node.js process serves the web app and its API. It stores data in an embedded SQLite database, or in PostgreSQL when you outgrow that. Every
          feature comes with tests, including browser tests against the real server.
        </p>
      </section>
    </ContentPage>
  );
}
