import { LogoIcon } from "./icons.tsx";

/** The product name above the signed-out screens' card. */
export function AuthBrand() {
  return (
    <div className="brand" aria-hidden="true">
      <LogoIcon size={28} />
      <span>Debrief</span>
    </div>
  );
}
