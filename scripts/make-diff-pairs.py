#!/usr/bin/env python3
"""Writes pairs of builds for `ipacheck diff`'s tests: one base build and one variant per regression a re-signing
tool can cause (and per change a release makes), each different from the base in exactly that way (built with
scripts/make-samples.py).

    make-diff-pairs.py OUT_DIR

- base.ipa: Diff.app (com.acme.diff 2.4.0 build 240, iphoneos, iOS 16.0; applinks + webcredentials, XML and DER
  entitlements, App Store profile of team 7QX3KD52VH expiring 2031-01-01) with PlugIns/Share.appex (webcredentials);
- same.ipa: the base built again;
- domain-dropped.ipa: the app no longer signs applinks:diff.example;
- wildcard.ipa: the app's associated domains are `*`, as a wildcard profile leaves them;
- der-gone.ipa: the app's signature has no DER entitlements blob;
- app-id.ipa: the app is com.acme.other;
- app-id-gone.ipa: the app signs no application-identifier (its profile still grants it);
- team.ipa: every bundle is signed for team ZZZZZ99999;
- profile-kind.ipa: the app's profile is a development one (devices, get-task-allow);
- extension-domains.ipa: the extension lost its associated domains;
- entitlement-changed.ipa: the app's keychain-access-groups differ;
- entitlement-removed.ipa: the app signs no keychain-access-groups;
- extension-removed.ipa: no Share.appex;
- domain-added.ipa: the app also signs applinks:new.diff.example;
- xml-domain-dropped.ipa: the app's XML entitlements blob no longer has applinks:diff.example; its DER blob is the
  base's;
- der-domain-dropped.ipa: the same, the other way round: only the DER blob lacks applinks:diff.example;
- der-entitlement-changed.ipa: the app's DER entitlements blob has other keychain-access-groups; its XML blob is the
  base's;
- profile-other.ipa: the app's code and entitlements are the base's, but its embedded profile is an ad hoc one of
  team ZZZZZ99999 for ZZZZZ99999.com.acme.other, with another UUID, expiring 2029-01-01;
- profile-renewed.ipa: the app's profile is the same kind, team and App ID, with another UUID, expiring 2032-01-01;
- profile-sooner.ipa: the app's profile is the base's (same UUID) expiring 2029-01-01;
- profile-grant-dropped.ipa: the app's profile no longer grants com.apple.developer.associated-domains (`*` in every
  other profile);
- version.ipa: the app is version 2.5.0 build 250;
- build-lowered.ipa: the app is build 239;
- min-os.ipa: the app needs iOS 17.0;
- platform.ipa: the app's Info.plist says iphonesimulator.

Each value named above is a constant below, so the tests' expected messages can be checked against this file.
"""
from __future__ import annotations

import contextlib
import datetime
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
OTHER_TEAM = "ZZZZZ99999"
OTHER_UUID = "0D1FF000-0000-4000-8000-0000000074E0"
RENEWED_UUID = "0D1FF000-0000-4000-8000-000000000002"
SOONER = datetime.datetime(2029, 1, 1, 0, 0, 0)
LATER = datetime.datetime(2032, 1, 1, 0, 0, 0)


def grants(signed: dict) -> dict:
    """What an App Store profile grants for `signed`, as the portal writes it: wildcard keychain groups and
    associated domains, so that a variant changing the signed domains leaves the profile as it was."""
    return S.profile_entitlements(signed, **{"com.apple.developer.associated-domains": "*"})


def profile(
    identity,
    name: str,
    entitlements: dict,
    *,
    team: str | None = None,
    uuid: str | None = None,
    expiration: datetime.datetime | None = None,
    devices: bool = False,
    get_task_allow: bool = False,
) -> bytes:
    """A profile as make-samples.py's App Store one, with the given team, UUID, expiry, device list (ad hoc, or
    development with get-task-allow)."""
    team = team or S.TEAM
    granted = dict(entitlements)
    if get_task_allow:
        granted["get-task-allow"] = True
    content = {
        "AppIDName": name,
        "ApplicationIdentifierPrefix": [team],
        "CreationDate": S.CREATION_DATE,
        "DeveloperCertificates": [identity.code_cert_der],
        "Entitlements": granted,
        "ExpirationDate": expiration or S.EXPIRATION_DATE,
        "IsXcodeManaged": False,
        "Name": name,
        "Platform": ["iOS"],
        "TeamIdentifier": [team],
        "TeamName": S.TEAM_NAME,
        "TimeToLive": 2191,
        "UUID": uuid or str(S.fixed_uuid("profile:" + name)).upper(),
        "Version": 1,
    }
    if devices:
        content["ProvisionedDevices"] = ["00008030-0000000000000001"]
    return identity.profile_cms(S.plist_xml(content))


@contextlib.contextmanager
def blob_overrides(signed: dict, xml: dict | None, der: dict | None):
    """While building, the XML (or DER) entitlements blob of the signature whose entitlements are `signed` (this very
    dict) carries `xml` (or `der`) instead; the other blob, and every other signature, is as make-samples.py writes
    it."""
    plist_xml, der_entitlements = S.plist_xml, S.der_entitlements
    S.plist_xml = lambda value: plist_xml(xml if xml is not None and value is signed else value)
    S.der_entitlements = lambda value: der_entitlements(der if der is not None and value is signed else value)
    try:
        yield
    finally:
        S.plist_xml, S.der_entitlements = plist_xml, der_entitlements


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
    with_app_id: bool = True,
    xml_change=None,
    der_change=None,
    profile_change: dict | None = None,
    grants_change=None,
    info_change: dict | None = None,
) -> bytes:
    """The base build, changed as the arguments say: `xml_change`/`der_change` rewrite a copy of the app's signed
    entitlements for that blob only, `profile_change` passes options to ``profile``, `grants_change` rewrites what
    the app's profile grants, `info_change` adds to the app's Info.plist."""
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
            profile=S.profile_bytes(identity, "Diff Share App Store", "Diff Share", grants(share_ent)),
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
    granted = grants(main_ent)
    if not with_app_id:  # from the signature only: the profile still grants it
        del main_ent["application-identifier"]
    if grants_change:
        granted = grants_change(dict(granted))
    options = dict(profile_change or {})
    if development:
        options.update(devices=True, get_task_allow=True)
    app_profile = profile(identity, "Diff App Store", granted, **options)
    xml = xml_change(dict(main_ent)) if xml_change else None
    der = der_change(dict(main_ent)) if der_change else None
    with blob_overrides(main_ent, xml, der):
        app = S.make_bundle(
            "Diff.app", S.info_plist(app_id, "Diff", **(info_change or {})), identity=identity,
            entitlements=main_ent, profile=app_profile, nested=nested, with_der=with_der,
        )  # fmt: skip
    return S.zip_bytes(S.ipa_members(app, {f"Payload/Diff.app/{app.executable}"}))


def without_applinks(entitlements: dict) -> dict:
    entitlements["com.apple.developer.associated-domains"] = [f"webcredentials:{APEX}"]
    return entitlements


def shared_keychain(entitlements: dict) -> dict:
    entitlements["keychain-access-groups"] = [f"{S.TEAM}.com.acme.shared"]
    return entitlements


def other_team_profile(granted: dict) -> dict:
    """What a profile of OTHER_TEAM for com.acme.other grants, the rest as the base's."""
    granted["application-identifier"] = f"{OTHER_TEAM}.com.acme.other"
    granted["com.apple.developer.team-identifier"] = OTHER_TEAM
    granted["keychain-access-groups"] = [f"{OTHER_TEAM}.*"]
    return granted


def without_domains_grant(granted: dict) -> dict:
    del granted["com.apple.developer.associated-domains"]
    return granted


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
        "app-id-gone": lambda: build(with_app_id=False),
        "profile-kind": lambda: build(development=True),
        "extension-domains": lambda: build(share_domains=()),
        "entitlement-changed": lambda: build(keychain=f"{S.TEAM}.com.acme.shared"),
        "entitlement-removed": lambda: build(with_keychain=False),
        "extension-removed": lambda: build(with_share=False),
        "domain-added": lambda: build(domains=DOMAINS + [f"applinks:new.{APEX}"]),
        "xml-domain-dropped": lambda: build(xml_change=without_applinks),
        "der-domain-dropped": lambda: build(der_change=without_applinks),
        "der-entitlement-changed": lambda: build(der_change=shared_keychain),
        "profile-other": lambda: build(
            profile_change={"team": OTHER_TEAM, "uuid": OTHER_UUID, "expiration": SOONER, "devices": True},
            grants_change=other_team_profile,
        ),
        "profile-renewed": lambda: build(profile_change={"uuid": RENEWED_UUID, "expiration": LATER}),
        "profile-sooner": lambda: build(profile_change={"expiration": SOONER}),
        "profile-grant-dropped": lambda: build(grants_change=without_domains_grant),
        "version": lambda: build(info_change={"CFBundleShortVersionString": "2.5.0", "CFBundleVersion": "250"}),
        "build-lowered": lambda: build(info_change={"CFBundleVersion": "239"}),
        "min-os": lambda: build(info_change={"MinimumOSVersion": "17.0"}),
        "platform": lambda: build(info_change={"DTPlatformName": "iphonesimulator"}),
    }
    for name, make in builds.items():
        (out / f"{name}.ipa").write_bytes(make())
    S.TEAM = OTHER_TEAM  # read when each bundle is built: every bundle of this one is signed for another team
    (out / "team.ipa").write_bytes(build())


if __name__ == "__main__":
    main()
