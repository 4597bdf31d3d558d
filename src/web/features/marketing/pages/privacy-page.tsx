import { installation } from '#web/lib/config.ts';
import { ContentPage } from '../site-layout.tsx';

export function PrivacyPage() {
  const { errorReportingHost, usageAnalyticsHost, emotionProviderHost } = installation();
  return (
    <ContentPage
      eyebrow="Legal"
      title="Privacy"
      lead="Parley is self-hosted software: your data stays on the server of whoever runs this installation. This page says exactly what it stores and what it does with it."
    >
      <section>
        <h2>Who holds your data</h2>
        <p>
          This installation of Parley is operated by your organisation or by whoever gave you access to it — the operator. Everything below is stored on the
          operator’s server: by default in an SQLite database file and in files under its data directory (<code>DATA_DIR</code>), or in the operator’s
          PostgreSQL database with recordings still under <code>DATA_DIR</code>. The Parley project does not receive your data.
        </p>
        <p>The operator is responsible for this installation: who may use it, its security, its backups, and how long data is kept.</p>
      </section>
      <section>
        <h2>What is stored</h2>
        <ul>
          <li>
            <strong>Your account:</strong> email address, full name, and your password hashed with argon2id. The password itself is never stored.
          </li>
          <li>
            <strong>Your sessions:</strong> one entry per sign-in with its time, IP address and browser. Refresh tokens and the codes in emails are stored only
            as hashes.
          </li>
          <li>
            <strong>Your meetings:</strong> the recordings you make or upload, their transcripts, speakers, summaries and insights.
          </li>
          <li>
            <strong>Server logs:</strong> requests with their time, address and IP, used to run and secure the installation. Logs never contain passwords,
            tokens or email links.
          </li>
        </ul>
      </section>
      <section>
        <h2>What Parley does with it</h2>
        <ul>
          <li>
            Transcription runs on this installation’s own server with an offline speech engine, and insights and sentiment are computed there too. Only if the
            administrator configures an external OpenAI-compatible service (a speech API, for instance) is a recording or transcript sent to that service to be
            processed.
          </li>
          <li>Sentiment is anonymous: it describes how the conversation went, not a judgement of any person.</li>
          <li>There are no third-party analytics, advertising or trackers, and your data is never sold.</li>
          {errorReportingHost || usageAnalyticsHost ? (
            <li>
              The operator collects, only while your Settings › Privacy switches allow it:
              {errorReportingHost
                ? ` the errors you run into, with email addresses, tokens and ids removed (Error Reporting, sent to ${errorReportingHost});`
                : ''}
              {usageAnalyticsHost
                ? ` which features you use, without your name, ids or content (Anonymized Feature Usage, sent to ${usageAnalyticsHost}).`
                : ''}
            </li>
          ) : (
            <li>Nothing about how you use Parley is collected: no error reports and no usage data leave this installation.</li>
          )}
          {emotionProviderHost ? (
            <li>
              For meetings recorded with Anonymous Emotional Analysis on, the transcript’s text, with names, email addresses and numbers removed and without the
              recording, is sent to {emotionProviderHost} to rate its tone.
            </li>
          ) : null}
          <li>
            The only cookie is your sidebar preference (<code>sidebar_state</code>). Your session is kept in your browser’s local storage and removed when you
            sign out.
          </li>
          <li>Deleting a meeting deletes its recording (the audio file) together with its transcript and insights.</li>
        </ul>
      </section>
      <section>
        <h2>Your choices</h2>
        <ul>
          <li>Delete any meeting at any time.</li>
          <li>To have your account and everything in it removed, or to get a copy of your data, ask the administrator of this installation.</li>
        </ul>
      </section>
      <section>
        <h2>Recording other people</h2>
        <p>
          Tell everyone in a meeting that it is being recorded before you start. Recording laws differ between countries, and getting consent is your
          responsibility.
        </p>
      </section>
    </ContentPage>
  );
}
