// Compiles the server to dist/server/main.js. `npm start` runs this bundle, with no TypeScript
// loader; npm packages stay external and load from node_modules. The sherpa-onnx host
// is the child process the server starts to run speech models (see engines/sherpa-onnx.ts); the
// diarization host runs the speaker diarization models (see speakers/sherpa-diarization.ts), and the
// clustering host tells speakers apart without models (see speakers/identify-speakers.ts), the voice
// embedding host describes voices for voice profiles (see speakers/sherpa-voice-embedding.ts), and the
// local notes host writes meeting notes off the server's thread (see notes/engines/local/); the
// document host renders exports and reads imported transcripts (see meetings/document-work.ts); the
// SQLite read worker answers searches on threads of their own (see db/sqlite-read-pool.ts).
import * as esbuild from 'esbuild';

await esbuild.build({
  entryPoints: {
    main: 'src/server/main.ts',
    'sherpa-onnx-host': 'src/server/features/transcription/engines/sherpa-onnx-host.ts',
    'sherpa-diarization-host': 'src/server/features/transcription/speakers/sherpa-diarization-host.ts',
    'clustering-host': 'src/server/features/transcription/speakers/clustering-host.ts',
    'sherpa-voice-embedding-host': 'src/server/features/transcription/speakers/sherpa-voice-embedding-host.ts',
    'local-notes-host': 'src/server/features/notes/engines/local/local-notes-host.ts',
    'document-host': 'src/server/features/meetings/document-host.ts',
    'sqlite-read-worker': 'src/server/db/sqlite-read-worker.ts',
  },
  outdir: 'dist/server',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
