#!/usr/bin/env python3
"""Writes ipacheck's sample inputs into Samples/ and checks what it wrote.

    pip install cryptography        # generator-only dependency (the product never runs this script)
    python3 scripts/make-samples.py [--out DIR]

Everything is built from scratch here: Mach-O executables with real code signatures (CodeDirectory with real
page and special-slot hashes, requirements, XML and DER entitlements, a CMS SignedData over the CodeDirectory),
resource seals, provisioning profiles (CMS-signed plists), GoogleService-Info.plist, AASA files and zips.
Nothing is copied from the test corpus.

Determinism: zip timestamps, plist dates, UUIDs and every byte that does not depend on a key are fixed. The
signing keys are generated afresh on every run (no private key is committed), and ECDSA signatures and the CMS
signingTime attribute differ per run; because the profile's bytes are sealed by CodeResources, which is bound into
the CodeDirectory, the ipa files change on every run. Compare samples by meaning, never by bytes.

After writing, the script re-reads every file and checks it with code independent of the builders: it parses the
Mach-O load commands and SuperBlob, recomputes every special-slot and code-page hash, decodes the DER entitlements
and compares them with the XML ones, checks every CodeResources entry (including nested cdhashes) against the zip,
and parses every plist and JSON file.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import io
import json
import os
import plistlib
import shutil
import struct
import sys
import uuid
import zipfile

try:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import pkcs7
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
except ImportError:  # pragma: no cover - depends on the machine
    sys.exit("make-samples.py needs the 'cryptography' package: pip install cryptography")

# ---------------------------------------------------------------------------------------------------------------
# The sample world. Change these constants (and Samples/README.md) together.

TEAM = "7QX3KD52VH"
OTHER_TEAM = "ZZZZZ99999"  # the wrong prefix links.acme.example lists
APEX = "acme.example"
MAIN_ID = "com.acme.shop"
TEAM_NAME = "Acme Sample Team"
FIXED_ZIP_TIME = (2025, 1, 1, 0, 0, 0)
CREATION_DATE = datetime.datetime(2025, 1, 1, 0, 0, 0)
EXPIRATION_DATE = datetime.datetime(2031, 1, 1, 0, 0, 0)
CERT_NOT_BEFORE = datetime.datetime(2025, 1, 1, tzinfo=datetime.timezone.utc)
CERT_NOT_AFTER = datetime.datetime(2031, 1, 1, tzinfo=datetime.timezone.utc)
UUID_NAMESPACE = uuid.UUID("6f1c2a4e-1b7d-4c3a-9e55-0a1c2d3e4f50")  # fixed; UUIDs are uuid5(namespace, name)

GOOGLE_PROJECT_NUMBER = "123456789012"
GOOGLE_CLIENT_ID = f"{GOOGLE_PROJECT_NUMBER}-abc.apps.googleusercontent.com"
GOOGLE_REVERSED_CLIENT_ID = f"com.googleusercontent.apps.{GOOGLE_PROJECT_NUMBER}-abc"
APPFLIP_URL = f"https://{APEX}/appflip/link"

MAIN_DOMAINS = [
    f"applinks:{APEX}",
    f"applinks:*.{APEX}",
    f"applinks:www.{APEX}",
    f"webcredentials:{APEX}",
    f"activitycontinuation:{APEX}",
    f"appclips:{APEX}",
    f"applinks:beta.{APEX}?mode=developer",
    f"applinks:mdm.{APEX}?mode=managed",
    f"applinks:links.{APEX}",
    "applinks:acme.page.link",
    f"applinks:shop.{APEX}:8443",
]
NOT_IN_PROFILE = f"applinks:www.{APEX}"

# ---------------------------------------------------------------------------------------------------------------
# Small encoders


def fixed_uuid(name: str) -> uuid.UUID:
    return uuid.uuid5(UUID_NAMESPACE, name)


def plist_xml(value) -> bytes:
    return plistlib.dumps(value, fmt=plistlib.FMT_XML, sort_keys=True)


def plist_binary(value) -> bytes:
    return plistlib.dumps(value, fmt=plistlib.FMT_BINARY, sort_keys=True)


def der_length(n: int) -> bytes:
    if n < 0x80:
        return bytes([n])
    body = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(body)]) + body


def der(tag: int, content: bytes) -> bytes:
    return bytes([tag]) + der_length(len(content)) + content


def der_integer(n: int) -> bytes:
    body = n.to_bytes(max(1, (n.bit_length() + 8) // 8), "big", signed=True)
    return der(0x02, body)


def der_entitlement_value(value) -> bytes:
    """One value in Apple's DER entitlements encoding (the `[APPLICATION 16]` form Apple's tools write)."""
    if isinstance(value, bool):
        return der(0x01, b"\xff" if value else b"\x00")
    if isinstance(value, int):
        return der_integer(value)
    if isinstance(value, str):
        return der(0x0C, value.encode("utf-8"))
    if isinstance(value, list):
        return der(0x30, b"".join(der_entitlement_value(v) for v in value))
    if isinstance(value, dict):
        pairs = b"".join(
            der(0x30, der(0x0C, key.encode("utf-8")) + der_entitlement_value(value[key])) for key in sorted(value)
        )
        return der(0xB0, pairs)  # [CONTEXT 16] constructed
    raise TypeError(f"no DER entitlement encoding for {type(value).__name__}")


def der_entitlements(entitlements: dict) -> bytes:
    """[APPLICATION 16] { INTEGER 1, dictionary }"""
    return der(0x70, der_integer(1) + der_entitlement_value(entitlements))


def blob(magic: int, payload: bytes) -> bytes:
    return struct.pack(">II", magic, 8 + len(payload)) + payload


def align(n: int, to: int) -> int:
    return (n + to - 1) // to * to


# ---------------------------------------------------------------------------------------------------------------
# Certificates and CMS


class Identity:
    """A self-made certificate hierarchy: a root, a code-signing leaf, a profile-signing leaf (fresh keys)."""

    def __init__(self) -> None:
        self.root_key = ec.generate_private_key(ec.SECP256R1())
        root_name = x509.Name(
            [
                x509.NameAttribute(NameOID.COMMON_NAME, "Acme Sample Root CA (self-made, not Apple)"),
                x509.NameAttribute(NameOID.ORGANIZATION_NAME, TEAM_NAME),
                x509.NameAttribute(NameOID.COUNTRY_NAME, "US"),
            ]
        )
        self.root = (
            self._builder(root_name, root_name, self.root_key.public_key(), 1)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .add_extension(self._usage(cert_sign=True), critical=True)
            .sign(self.root_key, hashes.SHA256())
        )
        self.code_key = ec.generate_private_key(ec.SECP256R1())
        code_name = x509.Name(
            [
                x509.NameAttribute(NameOID.USER_ID, TEAM),
                x509.NameAttribute(NameOID.COMMON_NAME, f"Apple Distribution: {TEAM_NAME} ({TEAM})"),
                x509.NameAttribute(NameOID.ORGANIZATIONAL_UNIT_NAME, TEAM),
                x509.NameAttribute(NameOID.ORGANIZATION_NAME, TEAM_NAME),
                x509.NameAttribute(NameOID.COUNTRY_NAME, "US"),
            ]
        )
        self.code = (
            self._builder(code_name, root_name, self.code_key.public_key(), 2)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(self._usage(), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CODE_SIGNING]), critical=True)
            .sign(self.root_key, hashes.SHA256())
        )
        self.profile_key = ec.generate_private_key(ec.SECP256R1())
        profile_name = x509.Name(
            [
                x509.NameAttribute(NameOID.COMMON_NAME, "Acme Sample Provisioning Profile Signing (not Apple)"),
                x509.NameAttribute(NameOID.ORGANIZATION_NAME, TEAM_NAME),
                x509.NameAttribute(NameOID.COUNTRY_NAME, "US"),
            ]
        )
        self.profile = (
            self._builder(profile_name, root_name, self.profile_key.public_key(), 3)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(self._usage(), critical=True)
            .sign(self.root_key, hashes.SHA256())
        )

    @staticmethod
    def _builder(subject, issuer, public_key, serial):
        return (
            x509.CertificateBuilder()
            .subject_name(subject)
            .issuer_name(issuer)
            .public_key(public_key)
            .serial_number(serial)
            .not_valid_before(CERT_NOT_BEFORE)
            .not_valid_after(CERT_NOT_AFTER)
        )

    @staticmethod
    def _usage(cert_sign: bool = False) -> x509.KeyUsage:
        return x509.KeyUsage(
            digital_signature=not cert_sign,
            content_commitment=False,
            key_encipherment=False,
            data_encipherment=False,
            key_agreement=False,
            key_cert_sign=cert_sign,
            crl_sign=cert_sign,
            encipher_only=False,
            decipher_only=False,
        )

    def code_cms(self, code_directory: bytes) -> bytes:
        """Detached CMS SignedData over the CodeDirectory (signed attributes incl. messageDigest)."""
        return (
            pkcs7.PKCS7SignatureBuilder()
            .set_data(code_directory)
            .add_signer(self.code, self.code_key, hashes.SHA256())
            .add_certificate(self.root)
            .sign(
                serialization.Encoding.DER,
                [pkcs7.PKCS7Options.DetachedSignature, pkcs7.PKCS7Options.NoCapabilities, pkcs7.PKCS7Options.Binary],
            )
        )

    def profile_cms(self, content: bytes) -> bytes:
        """Attached CMS SignedData whose eContent is the profile plist."""
        return (
            pkcs7.PKCS7SignatureBuilder()
            .set_data(content)
            .add_signer(self.profile, self.profile_key, hashes.SHA256())
            .add_certificate(self.root)
            .sign(serialization.Encoding.DER, [pkcs7.PKCS7Options.NoCapabilities, pkcs7.PKCS7Options.Binary])
        )

    @property
    def code_cert_der(self) -> bytes:
        return self.code.public_bytes(serialization.Encoding.DER)


# ---------------------------------------------------------------------------------------------------------------
# Mach-O with a code signature

MH_EXECUTE, MH_DYLIB = 2, 6
CPU = {"arm64": (0x0100000C, 0, 64), "arm64_32": (0x0200000C, 1, 32)}  # cputype, cpusubtype, bits
PLATFORM = {"ios": 2, "watchos": 4, "iossimulator": 7}
LC_SEGMENT, LC_SEGMENT_64, LC_UUID, LC_CODE_SIGNATURE = 0x1, 0x19, 0x1B, 0x1D
LC_LOAD_DYLIB, LC_ID_DYLIB, LC_BUILD_VERSION, LC_MAIN = 0xC, 0xD, 0x32, 0x80000028
CSMAGIC_SUPERBLOB, CSMAGIC_CODEDIRECTORY, CSMAGIC_REQUIREMENTS = 0xFADE0CC0, 0xFADE0C02, 0xFADE0C01
CSMAGIC_ENTITLEMENTS, CSMAGIC_DER_ENTITLEMENTS, CSMAGIC_BLOBWRAPPER = 0xFADE7171, 0xFADE7172, 0xFADE0B01
PAGE_SHIFT = 12
TEXT_FILE_SIZE = 0x1400  # two 4 KiB code pages, the second one short: exercises the short last page


def version32(text: str) -> int:
    parts = [int(p) for p in text.split(".")] + [0, 0]
    return parts[0] << 16 | parts[1] << 8 | parts[2]


class Signing:
    """What a bundle's executable signature binds and who signs it (`identity` None = ad hoc, empty CMS)."""

    def __init__(
        self, identifier, team, identity, info_plist=None, code_resources=None, entitlements=None, der=True
    ):
        self.identifier = identifier
        self.team = team
        self.identity = identity
        self.info_plist = info_plist
        self.code_resources = code_resources
        self.entitlements = entitlements
        self.der = der  # False: only the XML entitlements blob, as signing tools before Xcode 13 wrote


def build_macho(
    filetype: int,
    cpu: str,
    platform: str,
    minos: str,
    signing: Signing,
    strings: list[str],
    dylibs: list[str] = (),
    install_name: str | None = None,
    text_file_size: int = TEXT_FILE_SIZE,
    text_filler: bytes = b"",
) -> tuple[bytes, bytes]:
    """Returns (Mach-O bytes, CodeDirectory bytes); `text_filler` pads __TEXT (benchmarks use a large one)."""
    cputype, cpusubtype, bits = CPU[cpu]
    is64 = bits == 64
    ptr = "Q" if is64 else "I"
    header_size = 32 if is64 else 28
    seg_cmd, seg_size, sect_size = (LC_SEGMENT_64, 72, 80) if is64 else (LC_SEGMENT, 56, 68)
    cmd_align = 8 if is64 else 4
    text_vm = (0x100000000 if is64 else 0x4000) if filetype == MH_EXECUTE else 0

    code = struct.pack("<II", 0x52800000, 0xD65F03C0)  # mov w0, #0 ; ret
    cstring = b"".join(s.encode() + b"\0" for s in strings)

    def segment(name, vmaddr, vmsize, fileoff, filesize, maxprot, initprot, sections):
        head = struct.pack(
            f"<II16s{ptr}{ptr}{ptr}{ptr}iiII",
            seg_cmd, seg_size + sect_size * len(sections), name.encode(),
            vmaddr, vmsize, fileoff, filesize, maxprot, initprot, len(sections), 0,
        )  # fmt: skip
        body = b""
        for sectname, addr, size, offset, flags in sections:
            if is64:
                body += struct.pack(
                    "<16s16sQQIIIIIIII", sectname.encode(), name.encode(), addr, size, offset, 2, 0, 0, flags, 0, 0, 0
                )
            else:
                body += struct.pack(
                    "<16s16sIIIIIIIII", sectname.encode(), name.encode(), addr, size, offset, 2, 0, 0, flags, 0, 0
                )
        return head + body

    def dylib_command(cmd, name):
        raw = name.encode() + b"\0"
        size = align(24 + len(raw), cmd_align)
        return struct.pack("<IIIIII", cmd, size, 24, 2, 0x10000, 0x10000) + raw.ljust(size - 24, b"\0")

    def commands(text_off, linkedit_off, linkedit_size, sig_off, sig_size):
        cstring_off = text_off + len(code)
        cmds = []
        if filetype == MH_EXECUTE:
            cmds.append(segment("__PAGEZERO", 0, text_vm, 0, 0, 0, 0, []))
        cmds.append(
            segment(
                "__TEXT", text_vm, align(text_file_size, 0x4000), 0, text_file_size, 5, 5,
                [("__text", text_vm + text_off, len(code), text_off, 0x80000400),
                 ("__cstring", text_vm + cstring_off, len(cstring), cstring_off, 0x2)],
            )
        )  # fmt: skip
        cmds.append(
            segment("__LINKEDIT", text_vm + 0x4000, align(linkedit_size, 0x4000), linkedit_off, linkedit_size, 1, 1, [])
        )
        if install_name:
            cmds.append(dylib_command(LC_ID_DYLIB, install_name))
        for name in dylibs:
            cmds.append(dylib_command(LC_LOAD_DYLIB, name))
        cmds.append(struct.pack("<II", LC_UUID, 24) + fixed_uuid(signing.identifier + cpu).bytes)
        build_version = (LC_BUILD_VERSION, 24, PLATFORM[platform], version32(minos), version32("17.0"), 0)
        cmds.append(struct.pack("<IIIIII", *build_version))
        if filetype == MH_EXECUTE:
            cmds.append(struct.pack("<IIQQ", LC_MAIN, 24, text_off, 0))
        cmds.append(struct.pack("<IIII", LC_CODE_SIGNATURE, 16, sig_off, sig_size))
        return cmds

    # Layout: header + commands, __text, __cstring, zero padding up to TEXT_FILE_SIZE, __LINKEDIT (a small dummy
    # payload, then the signature at a 16-byte aligned offset at its very end).
    probe = commands(0, 0, 0, 0, 0)
    sizeofcmds = sum(len(c) for c in probe)
    text_off = align(header_size + sizeofcmds, 16)
    assert text_off + len(code) + len(cstring) + len(text_filler) <= text_file_size, "strings do not fit in __TEXT"
    linkedit_off = text_file_size
    linkedit_payload = b"\x02\x00\x00\x00" + b"_main\0__mh_execute_header\0".ljust(44, b"\0")  # dummy, not parsed
    sig_off = align(linkedit_off + len(linkedit_payload), 16)

    blobs = []  # (slot type, blob bytes) except the CodeDirectory and CMS
    requirements = blob(CSMAGIC_REQUIREMENTS, struct.pack(">I", 0))
    blobs.append((2, requirements))
    special = {2: requirements}
    if signing.info_plist is not None:
        special[1] = signing.info_plist
    if signing.code_resources is not None:
        special[3] = signing.code_resources
    if signing.entitlements is not None:
        xml = blob(CSMAGIC_ENTITLEMENTS, plist_xml(signing.entitlements))
        blobs.append((5, xml))
        special[5] = xml
        if signing.der:
            der_blob = blob(CSMAGIC_DER_ENTITLEMENTS, der_entitlements(signing.entitlements))
            blobs.append((7, der_blob))
            special[7] = der_blob
    n_special = max(special)
    code_limit = sig_off
    n_code = (code_limit + (1 << PAGE_SHIFT) - 1) >> PAGE_SHIFT
    ident = signing.identifier.encode() + b"\0"
    team = signing.team.encode() + b"\0" if signing.team else b""
    cd_header = 88
    hash_offset = cd_header + len(ident) + len(team) + 32 * n_special
    cd_length = hash_offset + 32 * n_code

    if signing.identity is None:
        cms_reserved = 8
    else:  # the CMS size is known only after signing; reserve what a same-sized CodeDirectory needs, plus slack
        cms_reserved = 8 + len(signing.identity.code_cms(bytes(cd_length))) + 64
    superblob_len = 12 + 8 * (len(blobs) + 2) + cd_length + sum(len(b) for _, b in blobs) + cms_reserved
    sig_size = align(superblob_len, 16)
    linkedit_size = sig_off + sig_size - linkedit_off

    cmds = commands(text_off, linkedit_off, linkedit_size, sig_off, sig_size)
    # NOUNDEFS|DYLDLINK|TWOLEVEL, plus PIE (executables) or NO_REEXPORTED_DYLIBS (dylibs)
    flags = 0x00200085 if filetype == MH_EXECUTE else 0x00100085
    magic = 0xFEEDFACF if is64 else 0xFEEDFACE
    header = struct.pack("<IiiIIII", magic, cputype, cpusubtype, filetype, len(cmds), sum(len(c) for c in cmds), flags)
    if is64:
        header += b"\0\0\0\0"
    image = bytearray(header + b"".join(cmds))
    assert len(image) <= text_off
    image += bytes(text_off - len(image)) + code + cstring
    image += text_filler
    image += bytes(text_file_size - len(image)) + linkedit_payload
    image += bytes(sig_off - len(image))
    assert len(image) == code_limit

    special_hashes = b""
    for slot in range(n_special, 0, -1):  # stored from -n_special up to -1
        special_hashes += hashlib.sha256(special[slot]).digest() if slot in special else bytes(32)
    code_hashes = b"".join(
        hashlib.sha256(bytes(image[i : i + (1 << PAGE_SHIFT)])).digest() for i in range(0, code_limit, 1 << PAGE_SHIFT)
    )
    exec_flags = 1 if filetype == MH_EXECUTE else 0  # CS_EXECSEG_MAIN_BINARY
    cd = struct.pack(
        ">IIIIIIIII BBBB I II I Q QQQ",
        CSMAGIC_CODEDIRECTORY, cd_length, 0x20400, 0x2 if signing.identity is None else 0,
        hash_offset, cd_header, n_special, n_code, code_limit,
        32, 2, 0, PAGE_SHIFT, 0,
        0, cd_header + len(ident) if team else 0, 0, 0,
        0, text_file_size, exec_flags,
    )  # fmt: skip
    assert len(cd) == cd_header
    cd += ident + team + special_hashes + code_hashes
    assert len(cd) == cd_length

    cms = b"" if signing.identity is None else signing.identity.code_cms(cd)
    cms_blob = blob(CSMAGIC_BLOBWRAPPER, cms)
    assert len(cms_blob) <= cms_reserved, "CMS grew past its reservation"
    ordered = [(0, cd)] + blobs + [(0x10000, cms_blob)]
    index, payload = b"", b""
    offset = 12 + 8 * len(ordered)
    for slot_type, data in ordered:
        index += struct.pack(">II", slot_type, offset + len(payload))
        payload += data
    superblob = struct.pack(">III", CSMAGIC_SUPERBLOB, 12 + len(index) + len(payload), len(ordered)) + index + payload
    image += superblob + bytes(sig_size - len(superblob))
    return bytes(image), cd


def cdhash(code_directory: bytes) -> bytes:
    return hashlib.sha256(code_directory).digest()[:20]


# ---------------------------------------------------------------------------------------------------------------
# Bundles

NESTED_RULE = (
    "^(Frameworks|SharedFrameworks|PlugIns|Plug-ins|XPCServices|Helpers|MacOS|"
    "Library/(Automator|Spotlight|LoginItems))/"
)


def code_resources(files: dict[str, bytes], nested: dict[str, tuple[bytes, str]]) -> bytes:
    """The resource seal: `files` (v1, SHA-1 of every file incl. nested bundles' files, like real seals) and
    `files2` (SHA-1 + SHA-256; Info.plist and PkgInfo omitted by rules2 as Xcode does; each nested bundle sealed as
    one entry by its cdhash and designated requirement)."""
    files1, files2 = {}, {}
    for path, data in files.items():
        files1[path] = hashlib.sha1(data).digest()
        top_level_plist = path in ("Info.plist", "PkgInfo")
        inside_nested = any(path.startswith(prefix + "/") for prefix in nested)
        if not top_level_plist and not inside_nested:
            files2[path] = {"hash": hashlib.sha1(data).digest(), "hash2": hashlib.sha256(data).digest()}
    for path, (nested_cdhash, identifier) in nested.items():
        files2[path] = {
            "cdhash": nested_cdhash,
            "requirement": f'identifier "{identifier}" and anchor apple generic and certificate '
            f'leaf[subject.CN] = "Apple Distribution: {TEAM_NAME} ({TEAM})" and certificate '
            "1[field.1.2.840.113635.100.6.2.1] /* exists */",
        }
    rules = {
        "^.*": True,
        "^.*\\.lproj/": {"optional": True, "weight": 1000.0},
        "^.*\\.lproj/locversion.plist$": {"omit": True, "weight": 1100.0},
        "^Base\\.lproj/": {"weight": 1010.0},
        "^version.plist$": True,
    }
    rules2 = {
        ".*\\.dSYM($|/)": {"weight": 11.0},
        "^(.*/)?\\.DS_Store$": {"omit": True, "weight": 2000.0},
        "^.*": True,
        "^.*\\.lproj/": {"optional": True, "weight": 1000.0},
        "^.*\\.lproj/locversion.plist$": {"omit": True, "weight": 1100.0},
        "^Base\\.lproj/": {"weight": 1010.0},
        "^Info\\.plist$": {"omit": True, "weight": 20.0},
        "^PkgInfo$": {"omit": True, "weight": 20.0},
        "^embedded\\.provisionprofile$": {"weight": 20.0},
        "^version\\.plist$": {"weight": 20.0},
        NESTED_RULE: {"nested": True, "weight": 10.0},
        "^[^/]+$": {"nested": True, "weight": 10.0},
    }
    return plist_xml({"files": files1, "files2": files2, "rules": rules, "rules2": rules2})


class Bundle:
    """A built bundle: its files relative to the bundle root, and its executable's CodeDirectory."""

    def __init__(self, name: str, identifier: str, files: dict[str, bytes], executable: str, cd: bytes):
        self.name, self.identifier, self.files, self.executable, self.cd = name, identifier, files, executable, cd


def make_bundle(
    name: str,
    info: dict,
    *,
    cpu: str = "arm64",
    platform: str = "ios",
    filetype: int = MH_EXECUTE,
    identity: Identity | None,
    entitlements: dict | None = None,
    profile: bytes | None = None,
    resources: dict[str, bytes] | None = None,
    nested: list[tuple[str, Bundle]] = (),
    strings: list[str] = (),
    dylibs: list[str] = ("/usr/lib/libSystem.B.dylib",),
    install_name: str | None = None,
    info_bytes: bytes | None = None,
    text_filler: bytes = b"",
    with_der: bool = True,
) -> Bundle:
    """Builds a bundle bottom-up: nested bundles are complete before the parent's seal names their cdhashes."""
    files: dict[str, bytes] = {}
    files["Info.plist"] = info_bytes if info_bytes is not None else plist_binary(info)
    if info.get("CFBundlePackageType") in ("APPL", "XPC!"):
        files["PkgInfo"] = (info["CFBundlePackageType"] + "????").encode()
    if profile is not None:
        files["embedded.mobileprovision"] = profile
    files.update(resources or {})
    nested_seal = {}
    for folder, child in nested:
        prefix = f"{folder}/{child.name}"
        for path, data in child.files.items():
            files[f"{prefix}/{path}"] = data
        nested_seal[prefix] = (cdhash(child.cd), child.identifier)
    seal = code_resources(files, nested_seal)
    executable = info["CFBundleExecutable"]
    team = TEAM if identity else None
    signing = Signing(
        info["CFBundleIdentifier"], team, identity, files["Info.plist"], seal, entitlements, der=with_der
    )
    minos = info.get("MinimumOSVersion", "16.0")
    text_size = TEXT_FILE_SIZE if not text_filler else align(len(text_filler) + 0x1000, 0x4000)
    image, cd = build_macho(
        filetype, cpu, platform, minos, signing, list(strings), list(dylibs), install_name, text_size, text_filler
    )
    files["_CodeSignature/CodeResources"] = seal
    files[executable] = image
    return Bundle(name, info["CFBundleIdentifier"], files, executable, cd)


def info_plist(
    identifier: str, executable: str, package_type: str = "APPL", platform: str = "iphoneos", **extra
) -> dict:
    watch = platform == "watchos"
    sdk = "watchos10.0" if watch else f"{platform}17.0"
    value = {
        "BuildMachineOSBuild": "23A344",
        "CFBundleDevelopmentRegion": "en",
        "CFBundleExecutable": executable,
        "CFBundleIdentifier": identifier,
        "CFBundleInfoDictionaryVersion": "6.0",
        "CFBundleName": executable,
        "CFBundlePackageType": package_type,
        "CFBundleShortVersionString": "2.4.0",
        "CFBundleSupportedPlatforms": [
            {"iphoneos": "iPhoneOS", "iphonesimulator": "iPhoneSimulator"}.get(platform, "WatchOS")
        ],
        "CFBundleVersion": "240",
        "DTPlatformName": platform,
        "DTPlatformVersion": "10.0" if watch else "17.0",
        "DTSDKName": sdk,
        "DTXcode": "1500",
        "MinimumOSVersion": "9.0" if watch else "16.0",
        "UIDeviceFamily": [4] if watch else [1, 2],
    }
    value.update(extra)
    return value


def profile_bytes(identity: Identity, name: str, app_id_name: str, entitlements: dict) -> bytes:
    content = {
        "AppIDName": app_id_name,
        "ApplicationIdentifierPrefix": [TEAM],
        "CreationDate": CREATION_DATE,
        "DeveloperCertificates": [identity.code_cert_der],
        "Entitlements": entitlements,
        "ExpirationDate": EXPIRATION_DATE,
        "IsXcodeManaged": False,
        "Name": name,
        "Platform": ["iOS"],
        "TeamIdentifier": [TEAM],
        "TeamName": TEAM_NAME,
        "TimeToLive": 2191,
        "UUID": str(fixed_uuid("profile:" + name)).upper(),
        "Version": 1,
    }
    return identity.profile_cms(plist_xml(content))


def base_entitlements(identifier: str, **extra) -> dict:
    value = {
        "application-identifier": f"{TEAM}.{identifier}",
        "com.apple.developer.team-identifier": TEAM,
        "get-task-allow": False,
    }
    value.update(extra)
    return value


def profile_entitlements(signed: dict, **overrides) -> dict:
    """What an App Store profile grants for `signed`: the same, with wildcard keychain groups."""
    value = dict(signed)
    value["keychain-access-groups"] = [f"{TEAM}.*"]
    value.update(overrides)
    return value


# ---------------------------------------------------------------------------------------------------------------
# Archives


def zip_bytes(members: list[tuple[str, bytes | None, bool]], compresslevel: int = 9) -> bytes:
    """members: (name, data or None for a directory, executable?). Fixed timestamps, deflate, Unix modes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data, executable in members:
            entry = zipfile.ZipInfo(name, date_time=FIXED_ZIP_TIME)
            entry.create_system = 3
            if data is None:
                entry.external_attr = (0o40755 << 16) | 0x10
                archive.writestr(entry, b"", compress_type=zipfile.ZIP_STORED)
            else:
                entry.external_attr = (0o100755 if executable else 0o100644) << 16
                archive.writestr(entry, data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=compresslevel)
    return buffer.getvalue()


def ipa_members(app: Bundle, executables: set[str]) -> list[tuple[str, bytes | None, bool]]:
    root = f"Payload/{app.name}"
    paths = {f"{root}/{p}": d for p, d in app.files.items()}
    directories = {"Payload/"}
    for path in paths:
        parts = path.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            directories.add("/".join(parts[:i]) + "/")
    members = [(d, None, False) for d in directories]
    members += [(p, d, p in executables) for p, d in paths.items()]
    return sorted(members, key=lambda m: m[0])


def executable_paths(root: str, bundle: Bundle, nested_layout: dict[str, Bundle]) -> set[str]:
    result = {f"{root}/{bundle.executable}"}
    for prefix, child in nested_layout.items():
        result.add(f"{root}/{prefix}/{child.executable}")
    return result


# ---------------------------------------------------------------------------------------------------------------
# The samples


def build_acme(identity: Identity) -> bytes:
    # Frameworks/AcmeKit.framework: a signed dylib, no entitlements, no profile.
    kit = make_bundle(
        "AcmeKit.framework",
        info_plist("com.acme.AcmeKit", "AcmeKit", "FMWK"),
        filetype=MH_DYLIB,
        identity=identity,
        install_name="@rpath/AcmeKit.framework/AcmeKit",
        strings=["AcmeKit sample framework"],
    )

    # Watch/AcmeWatch.app with PlugIns/AcmeWatchExtension.appex (arm64_32, 32-bit Mach-O, no associated domains).
    watch_ext_id = f"{MAIN_ID}.watchkitapp.watchkitextension"
    watch_ext_ent = base_entitlements(watch_ext_id)
    watch_ext = make_bundle(
        "AcmeWatchExtension.appex",
        info_plist(
            watch_ext_id, "AcmeWatchExtension", "XPC!", "watchos",
            NSExtension={
                "NSExtensionAttributes": {"WKAppBundleIdentifier": f"{MAIN_ID}.watchkitapp"},
                "NSExtensionPointIdentifier": "com.apple.watchkit",
            },
        ),
        cpu="arm64_32", platform="watchos", identity=identity, entitlements=watch_ext_ent,
        profile=profile_bytes(identity, "Acme Watch Extension App Store", "Acme Watch Extension",
                              profile_entitlements(watch_ext_ent)),
        strings=["AcmeWatchExtension"],
    )  # fmt: skip
    watch_id = f"{MAIN_ID}.watchkitapp"
    watch_ent = base_entitlements(watch_id)
    watch = make_bundle(
        "AcmeWatch.app",
        info_plist(
            watch_id, "AcmeWatch", "APPL", "watchos", WKCompanionAppBundleIdentifier=MAIN_ID, WKWatchKitApp=True
        ),
        cpu="arm64_32", platform="watchos", identity=identity, entitlements=watch_ent,
        profile=profile_bytes(identity, "Acme Watch App Store", "Acme Watch", profile_entitlements(watch_ent)),
        nested=[("PlugIns", watch_ext)], strings=["AcmeWatch"],
    )  # fmt: skip

    # PlugIns/Share.appex: webcredentials only.
    share_id = f"{MAIN_ID}.share"
    share_ent = base_entitlements(
        share_id,
        **{
            "com.apple.developer.associated-domains": [f"webcredentials:{APEX}"],
            "keychain-access-groups": [f"{TEAM}.{MAIN_ID}"],
        },
    )
    share = make_bundle(
        "Share.appex",
        info_plist(
            share_id, "Share", "XPC!",
            NSExtension={
                "NSExtensionAttributes": {"NSExtensionActivationRule": "TRUEPREDICATE"},
                "NSExtensionPointIdentifier": "com.apple.share-services",
                "NSExtensionPrincipalClass": "ShareViewController",
            },
        ),
        identity=identity, entitlements=share_ent,
        profile=profile_bytes(identity, "Acme Share App Store", "Acme Share", profile_entitlements(share_ent)),
        strings=["ShareViewController"],
    )  # fmt: skip

    # AppClips/AcmeClip.app: appclips + applinks, parent application identifier.
    clip_id = f"{MAIN_ID}.Clip"
    clip_ent = base_entitlements(
        clip_id,
        **{
            "com.apple.developer.associated-domains": [f"appclips:{APEX}", f"applinks:{APEX}"],
            "com.apple.developer.on-demand-install-capable": True,
            "com.apple.developer.parent-application-identifiers": [f"{TEAM}.{MAIN_ID}"],
        },
    )
    clip = make_bundle(
        "AcmeClip.app",
        info_plist(
            clip_id, "AcmeClip",
            NSAppClip={
                "NSAppClipRequestEphemeralUserNotification": False,
                "NSAppClipRequestLocationConfirmation": False,
            },
        ),
        identity=identity, entitlements=clip_ent,
        profile=profile_bytes(identity, "Acme Clip App Store", "Acme Clip", profile_entitlements(clip_ent)),
        strings=["AcmeClip"],
    )  # fmt: skip

    # The main app.
    main_ent = base_entitlements(
        MAIN_ID,
        **{"com.apple.developer.associated-domains": MAIN_DOMAINS, "keychain-access-groups": [f"{TEAM}.{MAIN_ID}"]},
    )
    granted = [d for d in MAIN_DOMAINS if d != NOT_IN_PROFILE]
    main_profile_ent = profile_entitlements(main_ent, **{"com.apple.developer.associated-domains": granted})
    google_service = plist_xml(
        {
            "API_KEY": "SAMPLE-API-KEY-not-a-real-key",
            "BUNDLE_ID": MAIN_ID,
            "CLIENT_ID": GOOGLE_CLIENT_ID,
            "GCM_SENDER_ID": GOOGLE_PROJECT_NUMBER,
            "GOOGLE_APP_ID": f"1:{GOOGLE_PROJECT_NUMBER}:ios:0123456789abcdef",
            "IS_ADS_ENABLED": False,
            "IS_ANALYTICS_ENABLED": False,
            "IS_APPINVITE_ENABLED": True,
            "IS_GCM_ENABLED": True,
            "IS_SIGNIN_ENABLED": True,
            "PLIST_VERSION": "1",
            "PROJECT_ID": "acme-shop",
            "REVERSED_CLIENT_ID": GOOGLE_REVERSED_CLIENT_ID,
            "STORAGE_BUCKET": "acme-shop.firebasestorage.app",
        }
    )
    main_info = info_plist(
        MAIN_ID, "Acme",
        CFBundleDisplayName="Acme",
        CFBundleURLTypes=[
            {"CFBundleURLName": "google", "CFBundleURLSchemes": [GOOGLE_REVERSED_CLIENT_ID]},
            {"CFBundleURLName": "acme", "CFBundleURLSchemes": ["acme"]},
        ],
        LSRequiresIPhoneOS=True,
    )  # fmt: skip
    nested = [("Frameworks", kit), ("PlugIns", share), ("AppClips", clip), ("Watch", watch)]
    app = make_bundle(
        "Acme.app", main_info, identity=identity, entitlements=main_ent,
        profile=profile_bytes(identity, "Acme App Store", "Acme Shop", main_profile_ent),
        resources={"GoogleService-Info.plist": google_service},
        nested=nested,
        strings=[
            # App Flip: what the release-gate heuristics look for in the main executable (all present on purpose).
            APPFLIP_URL,
            "https://oauth-redirect.googleusercontent.com/a/com.google.Chromecast",
            "https://oauth-redirect.googleusercontent.com/a/com.google.OPA",
            "UIApplicationOpenURLOptionUniversalLinksOnly",
            "access_denied",
        ],
        dylibs=["/usr/lib/libSystem.B.dylib", "@rpath/AcmeKit.framework/AcmeKit"],
    )  # fmt: skip
    layout = {  # every nested bundle, for the zip's executable bits
        "Frameworks/AcmeKit.framework": kit,
        "PlugIns/Share.appex": share,
        "AppClips/AcmeClip.app": clip,
        "Watch/AcmeWatch.app": watch,
        "Watch/AcmeWatch.app/PlugIns/AcmeWatchExtension.appex": watch_ext,
    }
    return zip_bytes(ipa_members(app, executable_paths("Payload/Acme.app", app, layout)))


def minimal_app(name: str, identifier: str, *, domains: list[str] = (), info_bytes: bytes | None = None) -> Bundle:
    """A thin arm64 simulator-style app, ad-hoc signed (empty CMS), no profile."""
    entitlements = {"application-identifier": f"{TEAM}.{identifier}"}
    if domains:
        entitlements["com.apple.developer.associated-domains"] = list(domains)
    info = info_plist(identifier, name.removesuffix(".app"), platform="iphonesimulator")
    return make_bundle(
        name, info, platform="iossimulator", identity=None, entitlements=entitlements, strings=[identifier],
        info_bytes=info_bytes,
    )


def build_minimal() -> bytes:
    app = minimal_app("Minimal.app", "com.acme.minimal", domains=[f"applinks:{APEX}"])
    return zip_bytes(ipa_members(app, {f"Payload/Minimal.app/{app.executable}"}))


def build_broken() -> dict[str, bytes]:
    """Each sample is broken in exactly one way; their apps claim no associated domains, so nothing else fires."""
    out = {"NotAZip.ipa": b"This is not a zip archive. ipacheck must say so and exit 2.\n"}
    stray = minimal_app("Acme.app", "com.acme.nopayload")
    out["NoPayload.ipa"] = zip_bytes(
        [("Acme.app/", None, False)]
        + [(f"Acme.app/{p}", d, p == stray.executable) for p, d in sorted(stray.files.items())]
    )
    garbage = b"<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict><key>CFBundleIdentifier</key><strin"
    bad = minimal_app("Bad.app", "com.acme.badinfo", info_bytes=garbage)
    out["BadInfoPlist.ipa"] = zip_bytes(ipa_members(bad, {f"Payload/Bad.app/{bad.executable}"}))
    cut = minimal_app("Truncated.app", "com.acme.truncated")
    cut.files[cut.executable] = cut.files[cut.executable][:0x1000]  # load commands intact; signature past EOF
    out["Truncated.ipa"] = zip_bytes(ipa_members(cut, {f"Payload/Truncated.app/{cut.executable}"}))
    ok = minimal_app("Traversal.app", "com.acme.traversal")
    members = ipa_members(ok, {f"Payload/Traversal.app/{ok.executable}"})
    members.insert(0, ("../evil", b"ipacheck must never write or read this member (zip path traversal).\n", False))
    out["Traversal.ipa"] = zip_bytes(members)
    return out


def aasa_documents() -> dict[str, dict]:
    main = f"{TEAM}.{MAIN_ID}"
    return {
        APEX: {
            "applinks": {
                "details": [
                    {
                        "appIDs": [main],
                        "components": [
                            {"/": "/account/*", "exclude": True, "comment": "account pages stay on the web"},
                            {"/": "/products/*", "comment": "product pages"},
                            {"/": "/cart"},
                            {"/": "/*", "?": {"promo": "?*"}, "comment": "any page opened from a promo link"},
                            {"/": "/appflip/link", "comment": "Google App Flip account linking"},
                        ],
                    },
                    {"appIDs": [f"{TEAM}.{MAIN_ID}.Clip"], "components": [{"/": "/products/*"}]},
                    {"appIDs": [f"{TEAM}.com.acme.minimal"], "components": [{"/": "/products/*"}]},
                ]
            },
            "webcredentials": {"apps": [main, f"{TEAM}.{MAIN_ID}.share"]},
            "appclips": {"apps": [f"{TEAM}.{MAIN_ID}.Clip"]},
            "activitycontinuation": {"apps": [main]},
        },
        f"www.{APEX}": {
            "applinks": {"details": [{"appIDs": [main], "components": [{"/": "/products/*"}, {"/": "/cart"}]}]}
        },
        f"links.{APEX}": {
            "applinks": {"details": [{"appIDs": [f"{OTHER_TEAM}.{MAIN_ID}"], "components": [{"/": "/r/*"}]}]}
        },
        f"beta.{APEX}": {"applinks": {"details": [{"appIDs": [main], "components": [{"/": "/*"}]}]}},
        f"mdm.{APEX}": {"applinks": {"details": [{"appIDs": [main], "components": [{"/": "/internal/*"}]}]}},
        f"shop.{APEX}": {"applinks": {"details": [{"appIDs": [main], "components": [{"/": "/*"}]}]}},
    }


def aasa_broken() -> dict[str, bytes]:
    main = f"{TEAM}.{MAIN_ID}"

    def dump(value) -> bytes:
        return (json.dumps(value, indent=2) + "\n").encode()

    return {
        # Legacy appID+paths and modern appIDs+components in one file, and paths beside components (dead).
        "mixed-formats.json": dump(
            {
                "applinks": {
                    "apps": [],
                    "details": [
                        {"appID": main, "paths": ["/products/*", "NOT /account/*"]},
                        {"appIDs": [f"{main}.Clip"], "components": [{"/": "/products/*"}], "paths": ["/clip/*"]},
                    ],
                }
            }
        ),
        # "path" is not a component key: the first rule has no "/" and matches every URL, so the exclude after it
        # never fires and /account/* opens the app.
        "path-typo.json": dump(
            {
                "applinks": {
                    "details": [
                        {
                            "appIDs": [main],
                            "components": [{"path": "/products/*"}, {"/": "/account/*", "exclude": True}],
                        }
                    ]
                }
            }
        ),
        # An exclude with a query pattern "*" matches URLs without that item too (M10): it blocks everything.
        "exclude-everything.json": dump(
            {
                "applinks": {
                    "details": [
                        {
                            "appIDs": [main],
                            "components": [{"?": {"no_app": "*"}, "exclude": True}, {"/": "/products/*"}],
                        }
                    ]
                }
            }
        ),
        # Not JSON: a trailing comma.
        "trailing-comma.json": (
            '{\n  "applinks": {\n    "details": [\n      {\n        "appIDs": ["' + main + '"],\n'
            '        "components": [{"/": "/products/*"},]\n      }\n    ]\n  }\n}\n'
        ).encode(),
    }


def appflip_config() -> bytes:
    config = {
        "appFlipURL": APPFLIP_URL,
        "clientID": "acme-google-home",
        "scopes": ["profile"],
        "googleApps": ["com.google.Chromecast", "com.google.OPA"],
    }
    return (json.dumps(config, indent=2) + "\n").encode()


# ---------------------------------------------------------------------------------------------------------------
# Independent checks of what was written


def check(condition: bool, what: str) -> None:
    if not condition:
        raise SystemExit(f"self-check failed: {what}")


def parse_der(data: bytes, pos: int = 0) -> tuple[int, bytes, int]:
    tag = data[pos]
    length = data[pos + 1]
    pos += 2
    if length & 0x80:
        count = length & 0x7F
        length = int.from_bytes(data[pos : pos + count], "big")
        pos += count
    return tag, data[pos : pos + length], pos + length


def decode_der_entitlement(data: bytes):
    tag, content, end = parse_der(data)
    check(end == len(data), "DER value has trailing bytes")
    if tag == 0x01:
        return content != b"\x00"
    if tag == 0x02:
        return int.from_bytes(content, "big", signed=True)
    if tag == 0x0C:
        return content.decode("utf-8")
    items, pos = [], 0
    while pos < len(content):
        _, _, nxt = parse_der(content, pos)
        items.append(content[pos:nxt])
        pos = nxt
    if tag == 0x30:
        return [decode_der_entitlement(i) for i in items]
    if tag == 0xB0:
        result, keys = {}, []
        for item in items:
            t, pair, _ = parse_der(item)
            check(t == 0x30, "dictionary entry is not a SEQUENCE")
            kt, key, kend = parse_der(pair)
            check(kt == 0x0C, "dictionary key is not a UTF8String")
            keys.append(key)
            result[key.decode()] = decode_der_entitlement(pair[kend:])
        check(keys == sorted(keys), "DER dictionary keys are not in order")
        return result
    raise SystemExit(f"self-check failed: unexpected DER tag {tag:#x}")


def verify_macho(image: bytes, bound: dict[int, bytes], where: str) -> tuple[bytes, dict | None]:
    """Parses a thin Mach-O and checks its signature; returns (CodeDirectory, entitlements or None)."""
    magic = struct.unpack_from("<I", image)[0]
    check(magic in (0xFEEDFACF, 0xFEEDFACE), f"{where}: not a thin Mach-O")
    is64 = magic == 0xFEEDFACF
    ncmds, sizeofcmds = struct.unpack_from("<II", image, 16)
    pos = 32 if is64 else 28
    sig = None
    segments = {}
    for _ in range(ncmds):
        cmd, size = struct.unpack_from("<II", image, pos)
        if cmd in (LC_SEGMENT, LC_SEGMENT_64):
            name = image[pos + 8 : pos + 24].rstrip(b"\0").decode()
            fileoff, filesize = struct.unpack_from("<QQ" if is64 else "<II", image, pos + (40 if is64 else 32))
            segments[name] = (fileoff, filesize)
        if cmd == LC_CODE_SIGNATURE:
            sig = struct.unpack_from("<II", image, pos + 8)
        pos += size
    check(pos == (32 if is64 else 28) + sizeofcmds, f"{where}: load commands do not add up")
    check(sig is not None, f"{where}: no LC_CODE_SIGNATURE")
    dataoff, datasize = sig
    check(dataoff % 16 == 0 and dataoff + datasize == len(image), f"{where}: signature not 16-aligned at the end")
    le_off, le_size = segments["__LINKEDIT"]
    check(le_off + le_size == len(image), f"{where}: __LINKEDIT does not end at the end of the file")
    sb = image[dataoff : dataoff + datasize]
    sb_magic, sb_len, count = struct.unpack_from(">III", sb)
    check(sb_magic == CSMAGIC_SUPERBLOB and sb_len <= datasize, f"{where}: bad SuperBlob")
    blobs = {}
    for i in range(count):
        slot_type, off = struct.unpack_from(">II", sb, 12 + 8 * i)
        length = struct.unpack_from(">I", sb, off + 4)[0]
        blobs[slot_type] = sb[off : off + length]
    cd = blobs[0]
    fields = struct.unpack_from(">IIIIIIIIIBBBBI", cd)
    _, _, version, flags, hash_off, ident_off, n_special, n_code, code_limit, hash_size, hash_type, _, page, _ = fields
    check(version == 0x20400 and hash_size == 32 and hash_type == 2 and page == 12, f"{where}: CodeDirectory header")
    check(code_limit == dataoff, f"{where}: codeLimit is not the signature offset")
    check(n_code == (code_limit + 4095) // 4096, f"{where}: code slot count")
    for i in range(n_code):
        page_bytes = image[i * 4096 : min((i + 1) * 4096, code_limit)]
        stored = cd[hash_off + 32 * i : hash_off + 32 * (i + 1)]
        check(stored == hashlib.sha256(page_bytes).digest(), f"{where}: page {i}")
    expected = dict(bound)
    expected[2] = blobs[2]
    if 5 in blobs:
        expected[5], expected[7] = blobs[5], blobs[7]
    for slot in range(1, n_special + 1):
        stored = cd[hash_off - 32 * slot : hash_off - 32 * (slot - 1)]
        want = hashlib.sha256(expected[slot]).digest() if slot in expected else bytes(32)
        check(stored == want, f"{where}: special slot -{slot}")
    check(blobs[2] == bytes.fromhex("fade0c010000000c00000000"), f"{where}: requirements blob")
    cms = blobs[0x10000]
    check(cms[:4] == b"\xfa\xde\x0b\x01", f"{where}: CMS wrapper magic")
    check((flags & 2 == 2) == (len(cms) == 8), f"{where}: ad-hoc flag and empty CMS disagree")
    entitlements = None
    if 5 in blobs:
        entitlements = plistlib.loads(blobs[5][8:])
        tag, content, end = parse_der(blobs[7][8:])
        check(tag == 0x70 and end == len(blobs[7]) - 8, f"{where}: DER entitlements envelope")
        check(content[:3] == b"\x02\x01\x01", f"{where}: DER entitlements version")
        check(decode_der_entitlement(content[3:]) == entitlements, f"{where}: DER and XML entitlements differ")
    ident = cd[ident_off : cd.index(b"\0", ident_off)].decode()
    return cd, {"identifier": ident, "flags": flags, "entitlements": entitlements, "cms": cms[8:]}


def verify_ipa(path: str, expect_cms: bool) -> list[str]:
    """Checks every bundle in an ipa: signature, seal, nested cdhashes. Returns a summary per bundle."""
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
        for info in archive.infolist():
            check(info.date_time == FIXED_ZIP_TIME, f"{path}: {info.filename} timestamp")
        files = {n: archive.read(n) for n in names if not n.endswith("/")}
    seal_suffix = "/_CodeSignature/CodeResources"
    bundle_roots = sorted({n[: -len(seal_suffix)] for n in files if n.endswith(seal_suffix)})
    cds, lines = {}, []
    for root in sorted(bundle_roots, key=lambda r: -r.count("/")):  # innermost first
        info = plistlib.loads(files[f"{root}/Info.plist"])
        exe = f"{root}/{info['CFBundleExecutable']}"
        seal_bytes = files[f"{root}/_CodeSignature/CodeResources"]
        cd, facts = verify_macho(files[exe], {1: files[f"{root}/Info.plist"], 3: seal_bytes}, exe)
        check(facts["identifier"] == info["CFBundleIdentifier"], f"{exe}: identifier")
        check((len(facts["cms"]) > 0) == expect_cms, f"{exe}: CMS presence")
        cds[root] = cd
        seal = plistlib.loads(seal_bytes)
        inside = {n[len(root) + 1 :]: d for n, d in files.items() if n.startswith(root + "/")}
        for rel, entry in seal["files2"].items():
            if "cdhash" in entry:
                check(entry["cdhash"] == hashlib.sha256(cds[f"{root}/{rel}"]).digest()[:20], f"{root}: cdhash {rel}")
            else:
                check(entry["hash2"] == hashlib.sha256(inside[rel]).digest(), f"{root}: hash2 {rel}")
                check(entry["hash"] == hashlib.sha1(inside[rel]).digest(), f"{root}: hash {rel}")
        for rel, digest in seal["files"].items():
            check(digest == hashlib.sha1(inside[rel]).digest(), f"{root}: files {rel}")
        nested = [rel for rel, e in seal["files2"].items() if "cdhash" in e]
        for rel in inside:
            sealed = rel in seal["files2"] or any(rel.startswith(n + "/") for n in nested)
            exempt = rel in (info["CFBundleExecutable"], "Info.plist", "PkgInfo") or rel.startswith("_CodeSignature/")
            check(sealed or exempt, f"{root}: {rel} is not sealed")
        domains = (facts["entitlements"] or {}).get("com.apple.developer.associated-domains", [])
        lines.append(f"  {root}: {info['CFBundleIdentifier']}, {len(files[exe])} B executable, {len(domains)} domains")
    return lines


def verify_profile(data: bytes, where: str) -> dict:
    """Pulls the plist out of the CMS by scanning for it (the real decode is openssl's, see README)."""
    start, end = data.find(b"<?xml"), data.find(b"</plist>")
    check(start > 0 and end > start, f"{where}: no plist inside the CMS")
    return plistlib.loads(data[start : end + len(b"</plist>")])


# ---------------------------------------------------------------------------------------------------------------


def write(path: str, data: bytes) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def main() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=os.path.join(here, "..", "Samples"), help="output folder (default: Samples/)")
    out = os.path.abspath(parser.parse_args().out)

    identity = Identity()
    acme = build_acme(identity)
    minimal = build_minimal()
    for generated in ("aasa", "aasa-broken", "broken"):
        shutil.rmtree(os.path.join(out, generated), ignore_errors=True)
    write(os.path.join(out, "Acme.ipa"), acme)
    # The main app's profile on its own, for `ipacheck profile` (the bytes Acme.ipa embeds).
    with zipfile.ZipFile(io.BytesIO(acme)) as archive:
        write(os.path.join(out, "Acme.mobileprovision"), archive.read("Payload/Acme.app/embedded.mobileprovision"))
    write(os.path.join(out, "Minimal.ipa"), minimal)
    write(os.path.join(out, "appflip.json"), appflip_config())
    for host, document in aasa_documents().items():
        aasa_path = os.path.join(out, "aasa", host, "apple-app-site-association")
        write(aasa_path, (json.dumps(document, indent=2) + "\n").encode())
    for name, data in aasa_broken().items():
        write(os.path.join(out, "aasa-broken", name), data)
    for name, data in build_broken().items():
        write(os.path.join(out, "broken", name), data)

    # Independent re-reading of everything written.
    summary = ["Acme.ipa"] + verify_ipa(os.path.join(out, "Acme.ipa"), expect_cms=True)
    summary += ["Minimal.ipa"] + verify_ipa(os.path.join(out, "Minimal.ipa"), expect_cms=False)
    with zipfile.ZipFile(os.path.join(out, "Acme.ipa")) as archive:
        main_profile = verify_profile(archive.read("Payload/Acme.app/embedded.mobileprovision"), "main profile")
        with open(os.path.join(out, "Acme.mobileprovision"), "rb") as f:
            check(f.read() == archive.read("Payload/Acme.app/embedded.mobileprovision"), "Acme.mobileprovision")
        granted = main_profile["Entitlements"]["com.apple.developer.associated-domains"]
        check(NOT_IN_PROFILE not in granted and len(granted) == len(MAIN_DOMAINS) - 1, "profile grants")
        check("ProvisionedDevices" not in main_profile, "App Store profile has no devices")
        gsi = plistlib.loads(archive.read("Payload/Acme.app/GoogleService-Info.plist"))
        info = plistlib.loads(archive.read("Payload/Acme.app/Info.plist"))
        check(gsi["REVERSED_CLIENT_ID"] in info["CFBundleURLTypes"][0]["CFBundleURLSchemes"], "URL scheme")
    for host in os.listdir(os.path.join(out, "aasa")):
        with open(os.path.join(out, "aasa", host, "apple-app-site-association"), "rb") as f:
            json.loads(f.read())
    with open(os.path.join(out, "appflip.json"), "rb") as f:
        json.loads(f.read())
    broken = os.path.join(out, "broken")
    check(not zipfile.is_zipfile(os.path.join(broken, "NotAZip.ipa")), "NotAZip is not a zip")
    with zipfile.ZipFile(os.path.join(broken, "NoPayload.ipa")) as archive:
        check(not any(n.startswith("Payload/") for n in archive.namelist()), "NoPayload has no Payload/")
    with zipfile.ZipFile(os.path.join(broken, "Traversal.ipa")) as archive:
        check("../evil" in archive.namelist(), "Traversal has ../evil")
    with zipfile.ZipFile(os.path.join(broken, "Truncated.ipa")) as archive:
        exe = archive.read("Payload/Truncated.app/Truncated")
        dataoff = struct.unpack_from("<I", exe, exe.find(struct.pack("<II", LC_CODE_SIGNATURE, 16)) + 8)[0]
        check(len(exe) == 0x1000 and dataoff > len(exe), "Truncated's signature lies past EOF")

    total = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(out) for f in fs)
    print("\n".join(summary))
    print(f"wrote {out} ({total} bytes); all self-checks passed")


if __name__ == "__main__":
    main()
