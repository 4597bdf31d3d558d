import { ContentPage } from '../site-layout.tsx';

export default function AboutPage() {
  return (
    <ContentPage title="About Parley" lead="A voice meeting assistant that you can own.">
      <section>
        <h2>What Parley is</h2>
        <p>
          Parley records meetings in the browser or takes an uploaded recording, transcribes it with speaker identification, and derives insights — key points, action items, decisions, topics,
          sentiment and participation — that people can search, share and act on.
        </p>
      </section>
      <section>
        <h2>Why open source</h2>
        <p>
          Meetings hold some of the most sensitive conversations an organisation has. Parley is MIT-licensed and self-hostable, so you can read every line of code that touches your recordings
          and run it on hardware you trust.
        </p>
      </section>
    </ContentPage>
  );
}
