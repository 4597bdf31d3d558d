import type { z } from 'zod/mini';
import { fillPath, toSearch, type Endpoint, type EndpointInput, type EndpointResponse } from '#shared/contracts/endpoint.ts';
import { ERROR_CODES, type ErrorCode } from '#shared/errors.ts';
import { ApiError, NETWORK_MESSAGE } from './api-error.ts';
import { bearer, getAccessToken, refreshAccessToken } from './auth/access-token.ts';
import { fileNameFrom } from './download-file.ts';

/**
 * The web app's only way to the REST API: `api(endpoint, input)` for JSON and `download(endpoint, input)`
 * for files, both from the endpoint objects of src/shared/contracts, so a path is never spelled out
 * here. The token is added in one place, a 401 refreshes the session once and retries once, and
 * every failure is an ApiError.
 */
export type RequestOptions = {
  signal?: AbortSignal;
  /** What to tell people when the answer is not what the endpoint promises (a screen's own words). */
  badResponseMessage?: string;
};

type JsonEndpoint = Endpoint & { response: z.ZodMiniType };
type FileEndpoint = Endpoint & { response: 'file' };

/** The input may be left out when every part of it is optional (no params, no body). */
type CallArgs<E extends Endpoint> =
  Partial<EndpointInput<E>> extends EndpointInput<E>
    ? [input?: EndpointInput<E>, options?: RequestOptions]
    : [input: EndpointInput<E>, options?: RequestOptions];

type RequestInput = { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };

export type DownloadedFile = { blob: Blob; fileName: string | undefined };

const BAD_RESPONSE_MESSAGE = 'The server answered with something this page cannot read. Reload the page and try again.';

/** Calls a JSON endpoint and answers its response, checked against the endpoint's schema. */
export function api<E extends JsonEndpoint>(endpoint: E, ...args: CallArgs<E>): Promise<EndpointResponse<E>>;
export async function api(endpoint: JsonEndpoint, input?: RequestInput, options: RequestOptions = {}): Promise<unknown> {
  const response = await send(endpoint, input, options, 'Request failed');
  const parsed = endpoint.response.safeParse(await readJson(response));
  if (!parsed.success) {
    throw new ApiError({
      status: response.status,
      code: 'BAD_RESPONSE',
      message: options.badResponseMessage ?? BAD_RESPONSE_MESSAGE,
      details: parsed.error.issues,
    });
  }
  return parsed.data;
}

/** Fetches a file endpoint (an export, a recording) with its name from Content-Disposition. */
export function download<E extends FileEndpoint>(endpoint: E, ...args: CallArgs<E>): Promise<DownloadedFile>;
export async function download(endpoint: FileEndpoint, input?: RequestInput, options: RequestOptions = {}): Promise<DownloadedFile> {
  const response = await send(endpoint, input, options, 'Download failed');
  return { blob: await response.blob(), fileName: fileNameFrom(response.headers.get('content-disposition')) };
}

/**
 * Opens a streamed endpoint (Server-Sent Events answering a POST, which EventSource cannot send) and
 * answers the Response for the caller to read; errors before the stream begins are ApiErrors as usual.
 */
export function openStream<E extends FileEndpoint>(endpoint: E, ...args: CallArgs<E>): Promise<Response>;
export async function openStream(endpoint: FileEndpoint, input?: RequestInput, options: RequestOptions = {}): Promise<Response> {
  return send(endpoint, input, options, 'Request failed');
}

/** Where a call goes: the endpoint's path with its params filled in, then its query. */
export function requestPath<E extends Endpoint>(endpoint: E, ...[input]: CallArgs<E>): string;
export function requestPath(endpoint: Endpoint, input?: RequestInput): string {
  return pathOf(endpoint, input);
}

const pathOf = (endpoint: Endpoint, input: RequestInput | undefined): string => `${fillPath(endpoint.path, input?.params)}${toSearch(input?.query)}`;

async function send(endpoint: Endpoint, input: RequestInput | undefined, options: RequestOptions, failure: string): Promise<Response> {
  const url = pathOf(endpoint, input);
  const body = input?.body === undefined ? undefined : JSON.stringify(input.body);
  // Public endpoints (a share link, the product tour) get no token, so they work for anyone.
  const signedIn = endpoint.auth !== false;
  const attempt = async (token: string | undefined): Promise<Response> => {
    try {
      return await fetch(url, {
        method: endpoint.method,
        headers: { ...bearer(token), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body,
        signal: options.signal,
      });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw new ApiError({ status: 0, code: 'NETWORK', message: NETWORK_MESSAGE });
    }
  };
  let response = await attempt(signedIn ? await getAccessToken() : undefined);
  if (response.status === 401 && signedIn) {
    // The token can expire between the auth client's check and the server's: one refresh, one retry.
    const token = await refreshAccessToken();
    if (token) response = await attempt(token);
  }
  if (!response.ok) throw await errorOf(response, failure);
  return response;
}

/** The body as JSON; undefined when it is empty or not JSON (a proxy's HTML page), never a crash. */
async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function errorOf(response: Response, failure: string): Promise<ApiError> {
  const body = await readJson(response);
  const error = isRecord(body) && isRecord(body.error) ? body.error : {};
  return new ApiError({
    status: response.status,
    code: isErrorCode(error.code) ? error.code : 'UNKNOWN',
    message: typeof error.message === 'string' ? error.message : `${failure} (${response.status})`,
    details: error.details,
  });
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const isErrorCode = (value: unknown): value is ErrorCode => Object.values(ERROR_CODES).some((code) => code === value);
