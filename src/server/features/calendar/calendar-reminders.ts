import type { Db } from '#server/db/create-db.ts';
import type { EventRecorder } from '#server/events/domain-events.ts';
import { REMINDER_LEAD_MINUTES } from '#shared/contracts/calendar.ts';
import { eventOf, type StoredEvent } from './calendar.repository.ts';
import { claimReminder, dueForReminder, pruneReminders, removeRemindersOf } from './calendar-reminders.repository.ts';

const LEAD_MS = REMINDER_LEAD_MINUTES * 60_000;
/** Reminders raised in one statement's worth; the sweep goes on while a batch comes back full. */
const BATCH = 200;
/** How long a raised reminder is remembered after its event started (only upcoming events are looked at). */
const KEEP_AFTER_START_MS = 86_400_000;

/**
 * Meeting reminders (Settings › Notifications › Meeting Reminders): the calendar's minute sweep raises
 * `calendar.event_starting` for each event of a connected calendar that starts within the lead, once
 * per occurrence and start time (calendar_reminders, in the event's transaction). Every person's
 * events are raised: the notifications feature reads their choice when it would send the email.
 */
export function createCalendarReminders(deps: { db: Db; events: EventRecorder; now: () => Date }) {
  const { db } = deps;

  const raiseDue = async (): Promise<number> => {
    const at = deps.now().getTime();
    await pruneReminders(db, new Date(at - KEEP_AFTER_START_MS).toISOString());
    const window = { after: new Date(at).toISOString(), until: new Date(at + LEAD_MS).toISOString(), limit: BATCH };
    let raised = 0;
    for (;;) {
      const due = await dueForReminder(db, window);
      for (const event of due) {
        const claimed = await deps.events.transaction(async (trx, raise) => {
          if (!(await claimReminder(trx, { userId: event.userId, eventId: event.id, eventStart: event.start, now: new Date(at).toISOString() }))) return false;
          raise({
            type: 'calendar.event_starting',
            actorId: null,
            ownerId: event.userId,
            teamId: null,
            subject: { type: 'user', id: event.userId },
            payload: { eventId: event.id, title: event.title, start: event.start, end: event.end, attendees: event.attendees },
          });
          return true;
        });
        if (claimed) raised += 1;
      }
      // Claimed rows drop out of the next read, so a full batch means there may be more.
      if (due.length < BATCH) return raised;
    }
  };

  return {
    raiseDue,
    /** The event as the calendar has it now, if it is still there and has not started (a reminder's last look before it goes). */
    upcoming: async (userId: string, eventId: string): Promise<StoredEvent | undefined> => {
      const event = await eventOf(db, userId, eventId);
      return event && !event.allDay && new Date(event.start).getTime() > deps.now().getTime() ? event : undefined;
    },
    removeFor: (userId: string) => removeRemindersOf(db, userId),
  };
}
