import { AccountSecurityCard } from './account-security-card.tsx';
import { ConnectedAccountsCard } from './connected-accounts-card.tsx';
import { PersonalInformationCard } from './personal-information-card.tsx';

/** Profile tab (spec §2 /settings): personal information, password, connected accounts. */
export function ProfileTab() {
  return (
    <div className="grid gap-6">
      <PersonalInformationCard />
      <AccountSecurityCard />
      <ConnectedAccountsCard />
    </div>
  );
}
