# ipacheck on Debian 12 slim: the Linux release archive, nothing compiled here.
#
#   scripts/release                                    # dist/ipacheck-VERSION-linux-ARCH.tar.gz and dist/SHA256SUMS
#   docker build -t ipacheck .
#   docker run --rm -v "$PWD:/work" ipacheck check App.ipa
#
# The image installs the archive for its platform from dist/ with install.sh, which checks it against
# dist/SHA256SUMS (the release workflow puts both Linux architectures there and builds linux/amd64 and linux/arm64).
# It runs as the unprivileged user ipacheck in /work; mount the folder holding the builds there. ca-certificates is
# there for the live AASA checks (ipacheck's TLS trusts the system's roots).
FROM debian:bookworm-slim

COPY install.sh /tmp/ipacheck/install.sh
COPY dist/ /tmp/ipacheck/dist/

# scripts/test-release runs this step, word for word, in a Debian 12 minbase chroot: keep it one RUN.
RUN set -eu; \
    apt-get update; \
    apt-get install -y --no-install-recommends ca-certificates; \
    rm -rf /var/lib/apt/lists/*; \
    sh /tmp/ipacheck/install.sh --from /tmp/ipacheck/dist --prefix /usr/local; \
    rm -rf /tmp/ipacheck; \
    useradd --create-home --uid 10001 --user-group ipacheck; \
    mkdir -p /work; \
    chown ipacheck:ipacheck /work; \
    ipacheck --version

USER ipacheck
WORKDIR /work
ENTRYPOINT ["ipacheck"]
CMD ["--help"]
