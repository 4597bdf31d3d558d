import { sql, type Kysely } from 'kysely';

/**
 * Named speakers count as a meeting's participants (cards, the participant filter, exports, the
 * dashboard): each participant row says whether a person typed it (`manual`) or it comes from a
 * speaker's name (`speaker`, kept in step when a speaker is renamed). Existing meetings get their
 * named speakers now.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('meeting_participants')
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('manual'))
    .execute();
  await sql`insert into meeting_participants (meeting_id, position, name, name_lower, source)
    select s.meeting_id, 1000 + s.position, s.display_name, lower(s.display_name), 'speaker'
    from meeting_speakers s
    where s.display_name is not null
      and not exists (select 1 from meeting_participants p where p.meeting_id = s.meeting_id and p.name_lower = lower(s.display_name))
      and s.position = (select min(o.position) from meeting_speakers o where o.meeting_id = s.meeting_id and lower(o.display_name) = lower(s.display_name))`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('meeting_participants').where('source', '=', 'speaker').execute();
  await db.schema.alterTable('meeting_participants').dropColumn('source').execute();
}
