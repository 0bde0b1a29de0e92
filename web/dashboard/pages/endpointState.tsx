import { Badge } from "../layout.tsx";

export const State = (props: { enabled: boolean }) => (
  <Badge status={props.enabled ? "enabled" : "disabled"} />
);
