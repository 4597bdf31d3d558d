import { ContentPage } from '../site-layout.tsx';

type Post = { date: string; title: string; paragraphs: readonly string[] };

const POSTS: readonly Post[] = [
  {
    date: '2026-11-20',
    title: 'Why we built Parley',
    paragraphs: [
      'Meeting assistants are genuinely useful: nobody wants to write minutes, and everybody wants to know who promised what. But most of them work by sending every word said in your meetings to someone else’s cloud.',
      'Parley does the same job — recording, transcripts with speakers, key points, action items and decisions — as open-source software you run yourself. The recordings, transcripts and insights live on your server, in a database you can back up, inspect and delete.',
    ],
  },
  {
    date: '2026-11-12',
    title: 'Transcribing offline with PocketSphinx',
    paragraphs: [
      'A fresh installation of Parley transcribes without any account or API key: it uses PocketSphinx, the offline speech recogniser from Carnegie Mellon University, which runs on an ordinary CPU and installs from the operating system’s packages.',
      'We measure it rather than guess: the test suite transcribes real recorded speech and checks the word error rate. An administrator who wants to trade privacy for accuracy can point Parley at an external OpenAI-compatible speech service instead — it is their choice, and the privacy page says so.',
    ],
  },
  {
    date: '2026-11-03',
    title: 'Self-hosting in two commands',
    paragraphs: [
      'npm start installs what is missing, builds the app, applies the database migrations and serves Parley on port 3000, with an embedded SQLite database under ./data. npm test runs every test, including real browser tests in Chromium.',
      'That is the whole set-up. When one machine is no longer enough, set DATABASE_URL and Parley runs on PostgreSQL with the same migrations.',
    ],
  },
];

const formatDate = (iso: string) => new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' });

export function BlogPage() {
  return (
    <ContentPage eyebrow="Blog" title="News from Parley" lead="Notes from the people building an open-source voice meeting assistant.">
      {POSTS.map((post) => (
        <section key={post.title} className="rounded-xl border bg-card p-6 shadow-xs">
          <p className="text-sm">
            <time dateTime={post.date}>{formatDate(post.date)}</time>
          </p>
          <h2 className="mt-1">{post.title}</h2>
          {post.paragraphs.map((text) => (
            <p key={text.slice(0, 32)}>{text}</p>
          ))}
        </section>
      ))}
    </ContentPage>
  );
}
