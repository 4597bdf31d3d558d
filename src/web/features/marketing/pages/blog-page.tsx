import { ContentPage } from '../site-layout.tsx';

const POSTS = [
  {
    date: '2026-11-20',
    title: 'Why we built Parley',
    text: 'Meeting assistants are useful, but most of them send every word you say to someone else’s cloud. Parley does the same job — recording, transcripts with speakers, action items and decisions — on a server you control.',
  },
  {
    date: '2026-11-12',
    title: 'Transcribing offline',
    text: 'Parley ships with an offline speech engine that runs on a plain CPU, so a fresh installation transcribes without any account or API key. Better engines can be added with one command when you want more accuracy.',
  },
  {
    date: '2026-11-03',
    title: 'Self-hosting in two commands',
    text: '“npm start” installs what is missing, builds, migrates the database and serves Parley on port 3000. “npm test” runs every test, including real browser tests. That is the whole set-up.',
  },
];

export default function BlogPage() {
  return (
    <ContentPage title="Blog" lead="News and notes from the people building Parley.">
      {POSTS.map((post) => (
        <section key={post.title}>
          <p className="text-sm">
            <time dateTime={post.date}>{new Date(post.date).toLocaleDateString(undefined, { dateStyle: 'long' })}</time>
          </p>
          <h2>{post.title}</h2>
          <p>{post.text}</p>
        </section>
      ))}
    </ContentPage>
  );
}
