import { getAddress } from "viem";

/** An address as the public pages show it (EIP-55 checksummed); as stored if it is none. */
export const checksummed = (address: string): string => {
  try {
    return getAddress(address);
  } catch {
    return address;
  }
};

/**
 * A hex value: an address whole (someone compares it), a longer one (a 66-character hash)
 * shortened so tables do not wrap, the whole in its title and for screen readers; a copy
 * button (the dashboard's script shows it) copies the whole.
 */
export function Hash(props: { value: string; href?: string }) {
  const { value } = props;
  const short = value.length > 42 ? `${value.slice(0, 10)}…${value.slice(-8)}` : value;
  const text =
    short === value ? (
      value
    ) : (
      <>
        <span aria-hidden="true">{short}</span>
        <span class="sr-only">{value}</span>
      </>
    );
  return (
    <span class="hash">
      {props.href ? (
        <a class="mono" href={props.href} rel="noreferrer" title={value}>
          {text}
        </a>
      ) : (
        <code title={value}>{text}</code>
      )}
      {short !== value && (
        <button type="button" class="copy" data-copy={value} hidden>
          Copy
        </button>
      )}
    </span>
  );
}

/** A transaction hash, linked to the explorer when there is one. */
export const TxLink = (props: { hash: string; explorerUrl: string | null }) => (
  <Hash
    value={props.hash}
    {...(props.explorerUrl ? { href: `${props.explorerUrl}/tx/${props.hash}` } : {})}
  />
);
