#!/usr/bin/env python3
"""Writes the inputs of the memory benchmark (scripts/bench-memory): files built to make work grow, so that a command
whose memory follows its input shows it.

    make_inputs.py OUT_DIR [MEMBERS]

- many-members.ipa: a signed App Store build with MEMBERS (default 19,970: 19,999 members) small sealed resources, so that both
  the archive's central directory and the bundle's CodeResources (about 15 MB of XML) are large;
- repeated-app-ids.json: an AASA file of 2 MB whose details list one app ID 80,000 times (a finding each);
- many-components.json: an AASA file of 2 MB with 20,000 components (rule analysis across all of them);
- big-seal.ipa: a small app whose CodeResources lists 19,990 files with 270-byte paths (under the 8 MiB limit for
  files read whole; every file missing);
- big-info.ipa: a small app whose Info.plist (binary, under the 1 MiB limit) holds 49,900 distinct strings, just
  under the 50,000-value limit for property lists;
- big-profile.ipa: a small app whose embedded.mobileprovision (under the 2 MiB limit for profiles) lists 10,000
  devices of 170 characters.
"""
from __future__ import annotations

import importlib.util
import json
import pathlib
import plistlib
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


def small_app_members(samples) -> list[tuple[str, bytes | None, bool]]:
    identity = samples.Identity()
    identifier = "com.acme.small"
    entitlements = samples.base_entitlements(identifier)
    profile = samples.profile_bytes(
        identity, "Acme Small App Store", "Acme Small", samples.profile_entitlements(entitlements)
    )
    app = samples.make_bundle(
        "Small.app",
        samples.info_plist(identifier, "Small"),
        identity=identity,
        entitlements=entitlements,
        profile=profile,
        resources={"a.txt": b"a"},
        strings=[identifier],
    )
    return samples.ipa_members(app, {f"Payload/Small.app/{app.executable}"})


def replaced(members, name: str, data: bytes):
    found = [m for m in members if m[0] == name]
    assert found, name
    return [(n, data if n == name else d, x) for n, d, x in members]


def big_seal_ipa(out: pathlib.Path) -> None:
    samples = load_samples_module()
    members = small_app_members(samples)
    digest = {"hash2": bytes(32)}
    files = {f"Missing/{index:06d}-" + "x" * 260: digest for index in range(19_990)}
    seal = plistlib.dumps({"files": {}, "files2": files, "rules": {}, "rules2": {}}, fmt=plistlib.FMT_XML)
    assert len(seal) < 8 * 1024 * 1024, len(seal)
    members = replaced(members, "Payload/Small.app/_CodeSignature/CodeResources", seal)
    out.write_bytes(samples.zip_bytes(members, compresslevel=1))
    print(f"{out}: CodeResources {len(seal) / 1e6:.1f} MB", file=sys.stderr)


def big_info_ipa(out: pathlib.Path) -> None:
    samples = load_samples_module()
    members = small_app_members(samples)
    info = samples.info_plist("com.acme.small", "Small")
    info["Pad"] = [f"{index:08d}" + "y" * 4 for index in range(49_900 - len(info) * 2 - 2)]
    data = plistlib.dumps(info, fmt=plistlib.FMT_BINARY)
    assert len(data) < 1024 * 1024, len(data)
    members = replaced(members, "Payload/Small.app/Info.plist", data)
    out.write_bytes(samples.zip_bytes(members, compresslevel=1))
    print(f"{out}: Info.plist {len(data) / 1e6:.1f} MB", file=sys.stderr)


def big_profile_ipa(out: pathlib.Path) -> None:
    samples = load_samples_module()
    members = small_app_members(samples)
    identity = samples.Identity()
    content = {
        "AppIDName": "Acme Small",
        "Entitlements": samples.profile_entitlements(samples.base_entitlements("com.acme.small")),
        "Name": "Acme Small Development",
        "ProvisionedDevices": [f"{index:08d}" + "d" * 162 for index in range(10_000)],
        "TeamIdentifier": [samples.TEAM],
        "UUID": "7D8D5A1E-0000-4000-8000-000000000001",
    }
    profile = identity.profile_cms(samples.plist_xml(content))
    assert len(profile) < 2 * 1024 * 1024, len(profile)
    members = replaced(members, "Payload/Small.app/embedded.mobileprovision", profile)
    out.write_bytes(samples.zip_bytes(members, compresslevel=1))
    print(f"{out}: embedded.mobileprovision {len(profile) / 1e6:.1f} MB", file=sys.stderr)


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
    members = int(sys.argv[2]) if len(sys.argv) > 2 else 19_970
    out.mkdir(parents=True, exist_ok=True)
    many_members_ipa(out / "many-members.ipa", members)
    repeated_app_ids(out / "repeated-app-ids.json")
    many_components(out / "many-components.json")
    big_seal_ipa(out / "big-seal.ipa")
    big_info_ipa(out / "big-info.ipa")
    big_profile_ipa(out / "big-profile.ipa")


if __name__ == "__main__":
    main()
