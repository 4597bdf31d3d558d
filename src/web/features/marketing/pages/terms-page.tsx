import { ContentPage } from '../site-layout.tsx';

export default function TermsPage() {
  return (
    <ContentPage title="Terms of use" lead="The rules for using this installation of Parley.">
      <section>
        <h2>The software</h2>
        <p>Parley is open-source software under the MIT licence, provided “as is”, without warranty of any kind. Transcripts and insights are produced automatically and can contain mistakes.</p>
      </section>
      <section>
        <h2>The operator</h2>
        <p>
          This installation is run by its operator, who is responsible for the server, its security and backups, who may use it, and how long recordings are kept. Plans and prices shown on this
          site describe what the operator offers.
        </p>
      </section>
      <section>
        <h2>Your responsibilities</h2>
        <ul>
          <li>Get the consent of everyone you record; tell participants that the meeting is recorded.</li>
          <li>Keep your password safe and sign out on shared computers.</li>
          <li>Do not upload recordings you have no right to process.</li>
        </ul>
      </section>
    </ContentPage>
  );
}
