/**
 * The header's account button: names the account in use and opens the switcher. It renders the
 * same before the switcher's code and the group's accounts have loaded (see account-switcher.tsx).
 */
export function AccountButton({ name, onClick }: { name: string; onClick: () => void }) {
  return (
    <button type="button" className="account-button" aria-haspopup="dialog" onClick={onClick}>
      <span className="account-button-label">Account</span>
      <span className="account-button-name">{name}</span>
    </button>
  );
}

/** The button's text until the group's accounts are known: the account in the URL, if any. */
export function pendingAccountName(accountId: string | null): string {
  return accountId === null ? 'Choose an account' : `Account ${accountId}`;
}
