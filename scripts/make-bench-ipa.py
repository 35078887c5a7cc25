#!/usr/bin/env python3
"""Writes the large ipa the seal-pass benchmark reads (scripts/bench-seal): a signed App Store build whose
CodeResources seals about 300 MB of resources, zipped to about 260 MB.

The bundle is built with make-samples.py's builders (self-made certificates, real code-page and resource hashes),
so `ipacheck verify --resources` accepts it. Its content is fixed by a seed: incompressible files (images, media)
and compressible ones (nibs, JSON, strings) in realistic sizes, many small and a few large, plus a 48 MiB main
executable, so both the per-member cost and the hashing throughput are measured.

    python3 scripts/make-bench-ipa.py --out bench-results/Large.ipa
"""

from __future__ import annotations

import argparse
import importlib.util
import pathlib
import random
import sys

HERE = pathlib.Path(__file__).resolve().parent


def load_samples_module():
    spec = importlib.util.spec_from_file_location("make_samples", HERE / "make-samples.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_samples"] = module
    spec.loader.exec_module(module)
    return module


def resources(seed: int) -> dict[str, bytes]:
    """About 300 MB: 200 MB incompressible and 100 MB text-like, in files of mixed sizes, mostly small."""
    rng = random.Random(seed)
    files: dict[str, bytes] = {}
    words = [f"word{i}" for i in range(2000)]

    def text(size: int) -> bytes:
        out = bytearray()
        while len(out) < size:
            out += (" ".join(rng.choice(words) for _ in range(12)) + "\n").encode()
        return bytes(out[:size])

    incompressible = 0
    index = 0
    while incompressible < 200_000_000:
        size = rng.choice([2_048] * 8 + [8_192] * 6 + [32_768] * 4 + [131_072] * 3 + [524_288] * 2 + [4_194_304])
        files[f"Assets/image-{index:05d}.png"] = rng.randbytes(size)
        incompressible += size
        index += 1
    compressible = 0
    index = 0
    while compressible < 100_000_000:
        size = rng.choice([1_024] * 8 + [4_096] * 6 + [16_384] * 4 + [65_536] * 2 + [262_144])
        folder = ["Base.lproj/Main.storyboardc", "Data", "en.lproj", "fr.lproj"][index % 4]
        files[f"{folder}/file-{index:05d}.dat"] = text(size)
        compressible += size
        index += 1
    return files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True, help="where to write the ipa")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    samples = load_samples_module()
    identity = samples.Identity()
    identifier = "com.acme.large"
    entitlements = samples.base_entitlements(identifier)
    profile = samples.profile_bytes(
        identity, "Acme Large App Store", "Acme Large", samples.profile_entitlements(entitlements)
    )
    info = samples.info_plist(identifier, "Large")
    # Code compresses about 2:1: half random bytes, half repeated instructions.
    half = 24 * 1024 * 1024
    filler = random.Random(args.seed + 1).randbytes(half) + bytes.fromhex("00008052c0035fd6") * (half // 8)
    app = samples.make_bundle(
        "Large.app",
        info,
        identity=identity,
        entitlements=entitlements,
        profile=profile,
        resources=resources(args.seed),
        strings=[identifier],
        text_filler=filler,
    )
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    members = samples.ipa_members(app, {f"Payload/Large.app/{app.executable}"})
    out.write_bytes(samples.zip_bytes(members, compresslevel=6))
    sealed = sum(len(data) for _, data, _ in members if data is not None)
    print(f"{out}: {out.stat().st_size / 1e6:.0f} MB zipped, {sealed / 1e6:.0f} MB in {len(members)} members")


if __name__ == "__main__":
    main()
