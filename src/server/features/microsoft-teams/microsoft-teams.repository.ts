import type { Db } from '#server/db/create-db.ts';
import type { ChannelRow, ChannelStore } from '#server/lib/chat-channels/chat-channels.ts';

/** The microsoft-teams feature's channels and what each was sent. */
export function microsoftTeamsStore(db: Db): ChannelStore {
  return {
    byScope: async (scopeKey) =>
      (await db.selectFrom('microsoft_teams_connections').selectAll().where('scope_key', '=', scopeKey).executeTakeFirst()) as ChannelRow | undefined,
    save: async (row) => {
      // A new URL replaces the channel of the same scope, and with it what the old one was sent.
      await db.deleteFrom('microsoft_teams_connections').where('scope_key', '=', row.scope_key).execute();
      await db.insertInto('microsoft_teams_connections').values(row).execute();
    },
    update: async (id, patch) => {
      await db.updateTable('microsoft_teams_connections').set(patch).where('id', '=', id).execute();
    },
    removeScope: async (scopeKey) => {
      const result = await db.deleteFrom('microsoft_teams_connections').where('scope_key', '=', scopeKey).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    ofUser: async (userId) => (await db.selectFrom('microsoft_teams_connections').selectAll().where('user_id', '=', userId).execute()) as ChannelRow[],
    removeUser: async (userId) => {
      await db
        .deleteFrom('microsoft_teams_connections')
        .where((eb) => eb.or([eb('user_id', '=', userId), eb('scope_key', '=', `user:${userId}`)]))
        .execute();
    },
    wasPosted: async (connectionId, eventId) =>
      (await db
        .selectFrom('microsoft_teams_posts')
        .select('event_id')
        .where('connection_id', '=', connectionId)
        .where('event_id', '=', eventId)
        .executeTakeFirst()) !== undefined,
    markPosted: async (connectionId, eventId, at) => {
      await db
        .insertInto('microsoft_teams_posts')
        .values({ connection_id: connectionId, event_id: eventId, posted_at: at })
        .onConflict((oc) => oc.columns(['connection_id', 'event_id']).doNothing())
        .execute();
    },
  };
}
