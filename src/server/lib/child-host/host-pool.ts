import type { Host, RunOptions } from './host-client.ts';

/**
 * A few hosts of one kind for short requests that may come several at once (exports, transcript
 * imports): a host runs one request at a time, so a second request starts a second host rather
 * than wait, up to `size`; past that, it waits behind the host with the fewest requests. Hosts are
 * started on first use and, like any host, let go when idle (host-client.ts); one that ended is
 * replaced by the next request.
 */
export type HostPool<Input, Output> = {
  run(input: Input, options?: RunOptions): Promise<Output>;
  /** Ends every host; a later run starts new ones. */
  close(): Promise<void>;
};

type Member<Input, Output> = { host: Promise<Host<unknown, Input, Output>>; started?: Host<unknown, Input, Output>; failed: boolean; busy: number };

export function createHostPool<Input, Output>(options: { size: number; start: () => Promise<Host<unknown, Input, Output>> }): HostPool<Input, Output> {
  let members: Member<Input, Output>[] = [];

  /** Synchronous, so that callers arriving at once each see the others' requests counted. */
  const take = (): Member<Input, Output> => {
    // Hosts that ended (idle, crashed, failed to start) are dropped; their callers have been answered.
    members = members.filter((member) => member.busy > 0 || (member.started ? member.started.alive() : !member.failed));
    const least = members.reduce<Member<Input, Output> | undefined>((best, member) => (best && best.busy <= member.busy ? best : member), undefined);
    const member = least && (least.busy === 0 || members.length >= options.size) ? least : startMember();
    member.busy++;
    return member;
  };
  const startMember = (): Member<Input, Output> => {
    const member: Member<Input, Output> = { host: options.start(), failed: false, busy: 0 };
    member.host.then(
      (host) => (member.started = host),
      () => (member.failed = true),
    );
    members.push(member);
    return member;
  };

  return {
    async run(input, runOptions) {
      const member = take();
      try {
        return await (await member.host).run(input, runOptions);
      } finally {
        member.busy--;
      }
    },
    async close() {
      const ending = members;
      members = [];
      // A host that never started has nothing to stop (its start's failure went to whoever asked for it).
      await Promise.all(ending.map((member) => member.host.then((host) => host.stop()).catch(() => undefined)));
    },
  };
}
