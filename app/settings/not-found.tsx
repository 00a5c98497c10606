import { NotFoundView } from "@/components/not-found-view";

export default function SettingsNotFound() {
  return <NotFoundView />;
}
