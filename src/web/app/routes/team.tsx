import { useMeetingStats } from '#web/features/meetings/api.ts';
import { TeamPage } from '#web/features/team/team-page.tsx';

/** Your meeting count on the sample team comes from your meetings (every one you recorded, you attended). */
export function Component() {
  const { data } = useMeetingStats();
  return <TeamPage meetingCount={data?.meetings ?? null} />;
}
