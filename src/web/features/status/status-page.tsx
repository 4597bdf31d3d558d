import { PageHeader } from '#web/components/layout/page-header.tsx';
import { QueryError } from '#web/components/query-error.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import type { StatusResponse } from '#shared/contracts/status.ts';
import { useStatus } from './api.ts';

const SETTING_LABEL: Record<StatusResponse['transcription']['setting'], string> = {
  auto: 'auto (the best engine available)',
  pocketsphinx: 'pocketsphinx',
  openai: 'openai',
  'sherpa-onnx': 'sherpa-onnx',
};

const MODEL_KIND: Record<StatusResponse['transcription']['models'][number]['kind'], string> = {
  asr: 'speech recognition',
  vad: 'voice activity detection',
  'speaker-segmentation': 'speaker segmentation',
  'speaker-embedding': 'speaker embeddings',
};

const AUTO_STATE: Record<StatusResponse['transcription']['autoModels']['state'], string> = {
  off: 'off (PARLEY_AUTO_MODELS=false)',
  pending: 'not started yet',
  checking: 'looking for the models host',
  downloading: 'downloading',
  installed: 'installed',
  offline: 'offline',
  failed: 'failed',
};

const size = (bytes: number) =>
  bytes < 1_000_000 ? `${Math.max(1, Math.round(bytes / 1000))} kB` : `${(bytes / 1_000_000).toFixed(bytes < 10_000_000 ? 1 : 0)} MB`;

/** /status: what this installation transcribes with, whether each engine is available and why not. */
export function StatusPage() {
  const { data, isPending, isError, error, refetch } = useStatus();
  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader title="System status" description="The transcription engines of this Parley installation." />
      {isPending ? (
        <Skeleton className="h-64 w-full" />
      ) : isError ? (
        <QueryError error={error} retry={refetch} title="The status could not be loaded:" reason="inline" />
      ) : (
        <div className="grid gap-6">
          {!data.database.ok && (
            <Card role="alert" className="border-destructive">
              <CardHeader>
                <CardTitle className="text-destructive">The database is damaged</CardTitle>
                <CardDescription>{data.database.reason} Restore it from a backup, then restart the server.</CardDescription>
              </CardHeader>
            </Card>
          )}
          <StatusDetails status={data.transcription} />
        </div>
      )}
    </div>
  );
}

function StatusDetails({ status }: { status: StatusResponse['transcription'] }) {
  const inUse = status.engines.find((engine) => engine.inUse);
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle data-testid="engine-in-use">
            Transcription engine: {inUse ? `${inUse.name} (${inUse.detail}) — ${inUse.available ? 'available' : 'unavailable'}` : status.inUse}
          </CardTitle>
          <CardDescription>
            TRANSCRIBE_ENGINE is {SETTING_LABEL[status.setting]}. {status.queue.running} transcription{status.queue.running === 1 ? '' : 's'} running,{' '}
            {status.queue.queued} waiting.
          </CardDescription>
        </CardHeader>
        <CardContent>
          {inUse && !inUse.available && inUse.reason && <p className="mb-4 text-sm text-destructive">{inUse.reason}</p>}
          {status.betterTranscripts && (
            <p className="mb-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900" data-testid="better-transcripts">
              Transcripts use the basic offline engine. For better transcripts, run <code className="font-mono">{status.betterTranscripts}</code> on the server.
            </p>
          )}
          <ul className="grid gap-3" aria-label="Engines">
            {status.engines.map((engine) => (
              <li key={engine.name} className="rounded-md border p-3">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-medium">{engine.name}</span>
                  <span className="text-sm text-muted-foreground">({engine.detail})</span>
                  <Badge variant={engine.available ? 'secondary' : 'outline'}>{engine.available ? 'available' : 'unavailable'}</Badge>
                  {engine.inUse && <Badge>in use</Badge>}
                </div>
                {engine.reason && <p className="mt-1 text-sm text-muted-foreground">{engine.reason}</p>}
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Speech models</CardTitle>
          <CardDescription>
            Installed with <code>npm run models -- fetch &lt;name&gt;</code> on the server; <code>npm run models -- list</code> shows them all.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-2 text-sm">
          {status.models.length === 0 ? (
            <p className="text-muted-foreground">No speech models are installed.</p>
          ) : (
            <ul className="grid gap-2" aria-label="Installed models">
              {status.models.map((model) => (
                <li key={model.name}>
                  <span className="font-medium">{model.name}</span> — {MODEL_KIND[model.kind]}, {size(model.bytes)}
                  {model.checksum === 'first-download' ? ', checksum recorded at first download' : ', checksum verified'}
                  {model.description && <span className="block text-muted-foreground">{model.description}</span>}
                </li>
              ))}
            </ul>
          )}
          <AutoModels auto={status.autoModels} />
          <p className="text-muted-foreground">
            Voice activity detection:{' '}
            {status.voiceActivityDetection.available
              ? `Silero VAD (${status.voiceActivityDetection.source === 'installed' ? 'installed model' : 'bundled, no download'})`
              : `unavailable — ${status.voiceActivityDetection.reason}`}
          </p>
        </CardContent>
      </Card>
    </div>
  );
}

/** The first start's background download of the recommended models: its state, message and progress. */
function AutoModels({ auto }: { auto: StatusResponse['transcription']['autoModels'] }) {
  return (
    <div className="grid gap-1" data-testid="auto-models">
      <p>
        <span className="font-medium">Recommended models at first start:</span> {AUTO_STATE[auto.state]}
      </p>
      {auto.message && <p className={auto.state === 'failed' ? 'text-destructive' : 'text-muted-foreground'}>{auto.message}</p>}
      {auto.downloads.length > 0 && auto.state !== 'installed' && (
        <ul className="grid gap-1" aria-label="Model downloads">
          {auto.downloads.map((download) => {
            const percent = download.totalBytes ? Math.floor((download.receivedBytes / download.totalBytes) * 100) : null;
            return (
              <li key={download.name} className="grid gap-1">
                <span>
                  {download.name} —{' '}
                  {download.done ? 'installed' : `${size(download.receivedBytes)}${download.totalBytes ? ` of ${size(download.totalBytes)}` : ''}`}
                </span>
                {!download.done && percent !== null && (
                  <progress className="h-2 w-full" max={100} value={percent} aria-label={`${download.name} download`}>
                    {percent}%
                  </progress>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
