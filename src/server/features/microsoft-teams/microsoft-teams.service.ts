import type { ChatConnection, ConnectChatBody } from '#shared/contracts/chat-integrations.ts';
import type { DomainEvent } from '#shared/contracts/events.ts';
import { AppError } from '#server/lib/app-error.ts';
import {
  ChannelPostError,
  createChatChannels,
  hostOnly,
  scopeKeyOf,
  type ChannelPoster,
  type ChatFeatureDeps,
  type OutboundRequest,
} from '#server/lib/chat-channels/chat-channels.ts';
import { checkOutboundUrl } from '#server/lib/outbound/outbound-fetch.ts';
import { teamsNotesCard, teamsTestCard, type TeamsCardMessage } from './adaptive-card.ts';
import { microsoftTeamsStore } from './microsoft-teams.repository.ts';

export type MicrosoftTeamsService = ReturnType<typeof createMicrosoftTeamsService>;

type MicrosoftTeamsDeps = ChatFeatureDeps;

/** Power Automate's Workflows trigger hosts ("When a Teams webhook request is received"), commercial and US government. */
const WORKFLOW_HOST = /(^|\.)(logic\.azure\.(com|us)|api\.powerplatform\.(com|us))$/;
const WORKFLOW_PATH = /\/workflows\/[A-Za-z0-9-]+\/triggers\/[A-Za-z0-9_-]+\/paths\/invoke$/;

export const TEAMS_WEBHOOK_HELP =
  'Paste a Teams Workflows webhook URL: in Teams, open the channel’s “…” › Workflows, choose “Post to a channel when a webhook request is received”, finish the steps and copy the URL it shows.';

export function checkTeamsWebhookUrl(text: string, allowAny: boolean): { destination: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new AppError('VALIDATION_FAILED', `That is not a URL. ${TEAMS_WEBHOOK_HELP}`);
  }
  if (url.username || url.password) throw new AppError('VALIDATION_FAILED', 'A webhook URL must not carry a user name or password.');
  if (url.hostname.endsWith('.webhook.office.com') && !allowAny)
    throw new AppError('VALIDATION_FAILED', `That is an Office 365 connector URL, which Microsoft is retiring. ${TEAMS_WEBHOOK_HELP}`);
  const allowed = allowAny
    ? url.protocol === 'https:' || url.protocol === 'http:'
    : url.protocol === 'https:' && WORKFLOW_HOST.test(url.hostname) && WORKFLOW_PATH.test(url.pathname) && url.searchParams.has('sig');
  if (!allowed) throw new AppError('VALIDATION_FAILED', `That is not a Teams Workflows webhook URL. ${TEAMS_WEBHOOK_HELP}`);
  // A literal private address is refused now, a name that resolves to one as each post connects.
  checkOutboundUrl(url, { allowPrivateNetworks: allowAny });
  return { destination: hostOnly(url) };
}

/** What a Workflows trigger's refusal means for the person, and what to do about it. */
export function teamsWebhookProblem(status: number, body: string): string {
  let code = '';
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown } };
    if (typeof parsed.error?.code === 'string') code = parsed.error.code.slice(0, 80);
  } catch {
    // Not JSON: the status alone says it.
  }
  const said = code ? ` (${code})` : '';
  if (status === 404) return `The Teams workflow was not found${said}: it was deleted. Create a new one in Teams › Workflows and connect its URL.`;
  if (status === 401 || status === 403)
    return `The Teams workflow refused the card${said}: its URL changed or it is turned off. Open it in Teams › Workflows, or create a new one and connect its URL.`;
  if (code === 'WorkflowTriggerIsNotEnabled' || code === 'WorkflowNotEnabled')
    return `The Teams workflow is turned off${said}. Turn it on in Teams › Workflows.`;
  if (status === 429) return `Teams is limiting posts to this workflow (HTTP 429${said}). It will be tried again.`;
  if (status >= 500) return `Teams answered HTTP ${status}${said}. It will be tried again.`;
  return `The Teams workflow refused the card (HTTP ${status}${said}). Check the workflow’s run history in Teams › Workflows.`;
}

export function createMicrosoftTeamsService(deps: MicrosoftTeamsDeps) {
  const post: ChannelPoster<TeamsCardMessage> = async ({ webhookUrl }, message, signal) => {
    if (!webhookUrl) throw new ChannelPostError('This Teams connection has no webhook URL: connect it again.');
    let answer: Awaited<ReturnType<OutboundRequest>>;
    try {
      answer = await deps.outbound(webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(message),
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      throw new ChannelPostError(`Teams could not be reached: ${error instanceof Error ? error.message : String(error)}`);
    }
    const body = await answer.text().catch(() => '');
    if (answer.status < 200 || answer.status > 299) throw new ChannelPostError(teamsWebhookProblem(answer.status, body));
  };

  const channels = createChatChannels<TeamsCardMessage>({
    provider: 'Microsoft Teams',
    table: 'microsoft_teams_connections',
    store: microsoftTeamsStore(deps.db),
    secrets: deps.secrets,
    teams: deps.teams,
    checkWebhookUrl: (url) => checkTeamsWebhookUrl(url, deps.allowAnyWebhookUrl),
    post,
    testMessage: teamsTestCard,
    namesOf: deps.namesOf,
    tell: deps.tell,
    now: deps.now,
    log: deps.log,
  });

  return {
    state: (userId: string, teamId: string | undefined): Promise<ChatConnection> => channels.state(userId, teamId),
    connect: (userId: string, body: ConnectChatBody): Promise<ChatConnection> => channels.connect(userId, body),
    disconnect: (userId: string, teamId: string | undefined): Promise<void> => channels.disconnect(userId, teamId),
    test: (userId: string, teamId: string | undefined): Promise<ChatConnection> => channels.test(userId, teamId),

    /** notes.ready: the owner's Teams channel and the meeting's team's, each once. */
    notesReady: async (event: Extract<DomainEvent, { type: 'notes.ready' }>, context: { signal: AbortSignal; final: boolean }): Promise<void> => {
      const ownerId = event.ownerId;
      if (!ownerId) return;
      const plain = await deps.digestOf(ownerId, event.subject.id, { shareLink: false });
      if (!plain) return;
      const scopes = [scopeKeyOf(ownerId, undefined), ...(plain.teamId ? [scopeKeyOf(ownerId, plain.teamId)] : [])];
      await channels.deliver(
        event.id,
        scopes,
        async (row) => teamsNotesCard(row.share_links === 1 ? ((await deps.digestOf(ownerId, event.subject.id, { shareLink: true })) ?? plain) : plain),
        context,
      );
    },

    removeFor: (userId: string): Promise<void> => channels.removeFor(userId),
    teamDeleted: (teamId: string): Promise<void> => channels.teamDeleted(teamId),
  };
}
