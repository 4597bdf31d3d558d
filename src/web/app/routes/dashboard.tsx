import { DashboardPage } from '#web/features/dashboard/dashboard-page.tsx';
import { PlanUsage } from '#web/features/dashboard/plan-usage.tsx';
import { MeetingInsights } from '#web/features/meetings/dashboard/meeting-insights.tsx';
import { RecentMeetings } from '#web/features/meetings/dashboard/recent-meetings.tsx';
import { UsageStatistics } from '#web/features/meetings/dashboard/usage-statistics.tsx';

export function Component() {
  return (
    <DashboardPage
      recentMeetings={<RecentMeetings />}
      usageStatistics={
        <UsageStatistics>
          <PlanUsage />
        </UsageStatistics>
      }
      meetingInsights={<MeetingInsights />}
    />
  );
}
