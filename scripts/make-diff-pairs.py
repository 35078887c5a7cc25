#!/usr/bin/env python3
"""Writes pairs of builds for `ipacheck diff`'s tests: one base build and one variant per regression a re-signing
tool can cause, each different from the base in exactly that way (built with scripts/make-samples.py).

    make-diff-pairs.py OUT_DIR

- base.ipa: Diff.app (com.acme.diff, applinks + webcredentials, XML and DER entitlements, App Store profile) with
  PlugIns/Share.appex (webcredentials);
- same.ipa: the base built again;
- domain-dropped.ipa: the app no longer signs applinks:diff.example;
- wildcard.ipa: the app's associated domains are `*`, as a wildcard profile leaves them;
- der-gone.ipa: the app's signature has no DER entitlements blob;
- app-id.ipa: the app is com.acme.other;
- team.ipa: every bundle is signed for team ZZZZZ99999;
- profile-kind.ipa: the app's profile is a development one (devices, get-task-allow);
- extension-domains.ipa: the extension lost its associated domains;
- entitlement-changed.ipa: the app's keychain-access-groups differ;
- entitlement-removed.ipa: the app signs no keychain-access-groups;
- extension-removed.ipa: no Share.appex;
- domain-added.ipa: the app also signs applinks:new.diff.example.
"""
from __future__ import annotations

import importlib.util
import pathlib
import sys

SCRIPTS = pathlib.Path(__file__).resolve().parent


def load_samples():
    spec = importlib.util.spec_from_file_location("make_samples", SCRIPTS / "make-samples.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_samples"] = module
    spec.loader.exec_module(module)
    return module


S = load_samples()
APEX = "diff.example"
DOMAINS = [f"applinks:{APEX}", f"webcredentials:{APEX}"]


def development_profile(identity, name: str, entitlements: dict) -> bytes:
    content = {
        "AppIDName": name,
        "ApplicationIdentifierPrefix": [S.TEAM],
        "CreationDate": S.CREATION_DATE,
        "DeveloperCertificates": [identity.code_cert_der],
        "Entitlements": dict(entitlements, **{"get-task-allow": True}),
        "ExpirationDate": S.EXPIRATION_DATE,
        "Name": name + " Development",
        "Platform": ["iOS"],
        "ProvisionedDevices": ["00008030-0000000000000001"],
        "TeamIdentifier": [S.TEAM],
        "TeamName": S.TEAM_NAME,
        "UUID": "7D8D5A1E-0000-4000-8000-00000000D1FF",
        "Version": 1,
    }
    return identity.profile_cms(S.plist_xml(content))


def build(
    *,
    app_id: str = "com.acme.diff",
    domains=DOMAINS,
    share_domains=(f"webcredentials:{APEX}",),
    with_share: bool = True,
    with_der: bool = True,
    development: bool = False,
    keychain: str | None = None,
    with_keychain: bool = True,
) -> bytes:
    identity = S.Identity()
    nested = []
    if with_share:
        extra = {"com.apple.developer.associated-domains": list(share_domains)} if share_domains else {}
        share_ent = S.base_entitlements(f"{app_id}.share", **extra)
        share = S.make_bundle(
            "Share.appex",
            S.info_plist(f"{app_id}.share", "Share", "XPC!", NSExtension={
                "NSExtensionPointIdentifier": "com.apple.share-services",
                "NSExtensionPrincipalClass": "ShareViewController",
            }),
            identity=identity, entitlements=share_ent,
            profile=S.profile_bytes(identity, "Diff Share App Store", "Diff Share", S.profile_entitlements(share_ent)),
        )  # fmt: skip
        nested.append(("PlugIns", share))
    main_ent = S.base_entitlements(
        app_id,
        **{
            "com.apple.developer.associated-domains": domains,
            "keychain-access-groups": [keychain or f"{S.TEAM}.{app_id}"],
        },
    )
    if not with_keychain:
        del main_ent["keychain-access-groups"]
    if development:
        profile = development_profile(identity, "Diff", S.profile_entitlements(main_ent))
    else:
        profile = S.profile_bytes(identity, "Diff App Store", "Diff", S.profile_entitlements(main_ent))
    app = S.make_bundle(
        "Diff.app", S.info_plist(app_id, "Diff"), identity=identity, entitlements=main_ent, profile=profile,
        nested=nested, with_der=with_der,
    )  # fmt: skip
    return S.zip_bytes(S.ipa_members(app, {f"Payload/Diff.app/{app.executable}"}))


def main() -> None:
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    builds = {
        "base": lambda: build(),
        "same": lambda: build(),
        "domain-dropped": lambda: build(domains=[f"webcredentials:{APEX}"]),
        "wildcard": lambda: build(domains="*"),
        "der-gone": lambda: build(with_der=False),
        "app-id": lambda: build(app_id="com.acme.other"),
        "profile-kind": lambda: build(development=True),
        "extension-domains": lambda: build(share_domains=()),
        "entitlement-changed": lambda: build(keychain=f"{S.TEAM}.com.acme.shared"),
        "entitlement-removed": lambda: build(with_keychain=False),
        "extension-removed": lambda: build(with_share=False),
        "domain-added": lambda: build(domains=DOMAINS + [f"applinks:new.{APEX}"]),
    }
    for name, make in builds.items():
        (out / f"{name}.ipa").write_bytes(make())
    S.TEAM = "ZZZZZ99999"  # read when each bundle is built: every bundle of this one is signed for another team
    (out / "team.ipa").write_bytes(build())


if __name__ == "__main__":
    main()
