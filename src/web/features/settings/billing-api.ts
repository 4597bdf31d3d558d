import { useMutation, useQueryClient } from '@tanstack/react-query';
import { billingEndpoints, type BillingOverview, type PaidPlanId } from '#shared/contracts/billing.ts';
import { api } from '#web/lib/api-client.ts';
import { myPlanOptions } from '#web/lib/my-plan.ts';

/** Checkout or the portal: the browser goes to Stripe's page, and Stripe sends it back to Settings › Billing. */
const goTo = (url: string) => window.location.assign(url);

export const useStartCheckout = () =>
  useMutation({ mutationFn: async (plan: PaidPlanId) => goTo((await api(billingEndpoints.checkout, { body: { plan } })).url) });
export const useOpenPortal = () => useMutation({ mutationFn: async () => goTo((await api(billingEndpoints.portal, {})).url) });

/** A plan change or Cancel Subscription answers the plan as it now is. */
function useSubscriptionChange<T>(change: (input: T) => Promise<BillingOverview>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: change, onSuccess: (overview) => client.setQueryData(myPlanOptions().queryKey, overview) });
}
export const useChangePlan = () => useSubscriptionChange((plan: PaidPlanId) => api(billingEndpoints.changePlan, { body: { plan } }));
export const useCancelSubscription = () => useSubscriptionChange(() => api(billingEndpoints.cancel, {}));
