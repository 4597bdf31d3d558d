import { ContentPage } from '../site-layout.tsx';

export function ContactPage() {
  return (
    <ContentPage eyebrow="Contact" title="Contact" lead="Who to ask depends on what you need.">
      <section>
        <h2>Your account and your meetings</h2>
        <p>
          This installation of Parley is run by your organisation or by whoever gave you access to it. For questions about your account, your recordings, or
          access for your team, contact the administrator of this installation.
        </p>
      </section>
      <section>
        <h2>Plans, Enterprise and discounts</h2>
        <p>
          Plans, Enterprise offers and discounts for education, non-profits and students are arranged by whoever operates this installation: ask its
          administrator to put you in touch with sales.
        </p>
      </section>
      <section>
        <h2>The software itself</h2>
        <p>
          To report a bug, ask a question or suggest a feature, open an issue on the Parley project’s repository. Please do not include recordings or personal
          data in an issue.
        </p>
      </section>
    </ContentPage>
  );
}
