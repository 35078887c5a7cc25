#!/usr/bin/env python3
"""Writes the inputs of the memory benchmark (scripts/bench-memory): files built to make work grow, so that a command
whose memory follows its input shows it.

    make_inputs.py OUT_DIR [MEMBERS]

- many-members.ipa: a signed App Store build with MEMBERS (default 100,000) small sealed resources, so that both
  the archive's central directory and the bundle's CodeResources (about 15 MB of XML) are large;
- repeated-app-ids.json: an AASA file of 2 MB whose details list one app ID 80,000 times (a finding each);
- many-components.json: an AASA file of 2 MB with 20,000 components (rule analysis across all of them).
"""
from __future__ import annotations

import importlib.util
import json
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
SCRIPTS = HERE.parent.parent / "scripts"


def load_samples_module():
    spec = importlib.util.spec_from_file_location("make_samples", SCRIPTS / "make-samples.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_samples"] = module
    spec.loader.exec_module(module)
    return module


def many_members_ipa(out: pathlib.Path, members: int) -> None:
    samples = load_samples_module()
    identity = samples.Identity()
    identifier = "com.acme.many"
    entitlements = samples.base_entitlements(identifier)
    profile = samples.profile_bytes(
        identity, "Acme Many App Store", "Acme Many", samples.profile_entitlements(entitlements)
    )
    resources = {f"Assets/{index // 1000:03d}/item-{index:06d}.txt": b"%d\n" % index for index in range(members)}
    app = samples.make_bundle(
        "Many.app",
        samples.info_plist(identifier, "Many"),
        identity=identity,
        entitlements=entitlements,
        profile=profile,
        resources=resources,
        strings=[identifier],
    )
    zipped = samples.ipa_members(app, {f"Payload/Many.app/{app.executable}"})
    out.write_bytes(samples.zip_bytes(zipped, compresslevel=1))
    print(f"{out}: {out.stat().st_size / 1e6:.0f} MB, {len(zipped)} members", file=sys.stderr)


def repeated_app_ids(out: pathlib.Path) -> None:
    app_ids = ["ABCDE12345.com.example.app"] * 80_000
    document = {"applinks": {"details": [{"appIDs": app_ids, "components": [{"/": "/a/*"}]}]}}
    out.write_text(json.dumps(document))


def many_components(out: pathlib.Path) -> None:
    components = [{"/": f"/section-{index}/*", "?": {"id": "?*"}} for index in range(20_000)]
    document = {"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": components}]}}
    out.write_text(json.dumps(document))


def main() -> None:
    out = pathlib.Path(sys.argv[1])
    members = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    out.mkdir(parents=True, exist_ok=True)
    many_members_ipa(out / "many-members.ipa", members)
    repeated_app_ids(out / "repeated-app-ids.json")
    many_components(out / "many-components.json")


if __name__ == "__main__":
    main()
