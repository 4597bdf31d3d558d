import { ContentPage } from '../site-layout.tsx';

export default function ContactPage() {
  return (
    <ContentPage title="Contact" lead="How to reach the right people.">
      <section>
        <h2>About this installation</h2>
        <p>
          This Parley is run by your organisation or by whoever gave you access to it. For questions about your account, your recordings or access for your team, contact the administrator of
          this installation.
        </p>
      </section>
      <section>
        <h2>About the software</h2>
        <p>To report a bug, ask a question or suggest a feature, open an issue on the Parley project’s repository.</p>
      </section>
      <section>
        <h2>Sales and discounts</h2>
        <p>For Enterprise plans and discounts for education, non-profits and students, contact the administrator of this installation, who can reach our sales team.</p>
      </section>
    </ContentPage>
  );
}
