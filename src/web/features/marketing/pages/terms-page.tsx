import { ContentPage } from '../site-layout.tsx';

export function TermsPage() {
  return (
    <ContentPage eyebrow="Legal" title="Terms of use" lead="The rules for using this installation of Parley.">
      <section>
        <h2>The software</h2>
        <p>
          Parley is open-source software under the MIT licence. It is provided “as is”, without warranty of any kind, express or implied. Transcripts, summaries
          and insights are produced automatically and can contain mistakes: check what matters before you rely on it.
        </p>
      </section>
      <section>
        <h2>The operator</h2>
        <p>
          This installation is run by its operator — your organisation, or whoever gave you access. The operator decides who may use it and is responsible for
          the server, its security, its backups, how long recordings are kept, whether an external transcription service is used, and for complying with the
          data-protection rules that apply to them. Plans and prices shown on this site describe what the operator offers.
        </p>
      </section>
      <section>
        <h2>Your responsibilities</h2>
        <ul>
          <li>
            <strong>Recording consent is your responsibility.</strong> Tell participants that the meeting is recorded, and get their consent where the law
            requires it.
          </li>
          <li>Upload only recordings you have the right to process.</li>
          <li>Keep your password safe, and sign out on shared computers.</li>
          <li>Do not use Parley to break the law or to harm others.</li>
        </ul>
      </section>
    </ContentPage>
  );
}
