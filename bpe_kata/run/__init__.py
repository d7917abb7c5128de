"""How a spec run goes: the plugin's rooms, the implementation's loading, outcomes, reports and the verdict."""
