import { checkOutboundUrl, OutboundError, outboundFetch, type OutboundPolicy } from '#server/lib/outbound/outbound-fetch.ts';
import { AppError } from '#server/lib/app-error.ts';

/**
 * Fetching a calendar's secret iCal address. The address is a password in all but name (anyone who
 * has it reads the calendar), so it appears in no message and no log: only its host does.
 */

/** The largest calendar file read; a busy calendar of several years is under 2 MB. */
export const MAX_ICS_BYTES = 5 * 1024 * 1024;

/** webcal:// (what "Subscribe" links use) is https:// under another name. */
export function normaliseIcsUrl(text: string, policy: Pick<OutboundPolicy, 'allowPrivateNetworks'>): URL {
  const trimmed = text.trim().replace(/^webcals?:\/\//i, 'https://');
  return checkOutboundUrl(trimmed, policy);
}

/** What the person sees of the address: its host and "…". */
export const icsLabel = (url: URL): string => `${url.host}/…`;

/** The calendar's text, or an AppError saying in words a person can act on why not. */
export async function fetchIcs(url: URL, policy: Pick<OutboundPolicy, 'allowPrivateNetworks'> & { timeoutMs: number }, signal?: AbortSignal): Promise<string> {
  let response: Response;
  try {
    response = await outboundFetch(
      url,
      { headers: { accept: 'text/calendar, */*;q=0.5' }, ...(signal ? { signal } : {}) },
      {
        allowPrivateNetworks: policy.allowPrivateNetworks,
        timeoutMs: policy.timeoutMs,
        maxResponseBytes: MAX_ICS_BYTES,
      },
    );
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    switch (error.reason) {
      case 'too_large':
        throw new AppError(
          'PAYLOAD_TOO_LARGE',
          `The calendar at ${url.host} is larger than ${MAX_ICS_BYTES / 1024 / 1024} MB, more than Parley reads. Connect a calendar with fewer events, or connect with Google instead.`,
        );
      case 'timeout':
        throw new AppError(
          'ENGINE_UNAVAILABLE',
          `${url.host} did not answer within ${policy.timeoutMs / 1000} s. Try again later; if it keeps failing, check the address.`,
        );
      case 'refused':
        throw error;
      default:
        throw new AppError('ENGINE_UNAVAILABLE', `${url.host} could not be reached. Check that you copied the whole address, then try again.`);
    }
  }
  if (response.status === 401 || response.status === 403 || response.status === 404 || response.status === 410) {
    throw new AppError(
      'VALIDATION_FAILED',
      `${url.host} answered ${response.status}: the address is wrong or was reset. Copy the secret address in iCal format from your calendar's settings again.`,
    );
  }
  if (!response.ok) throw new AppError('ENGINE_UNAVAILABLE', `${url.host} answered ${response.status}. Try again later.`);
  return await response.text();
}
