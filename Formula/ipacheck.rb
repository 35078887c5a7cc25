# Homebrew formula for ipacheck: builds from source with SwiftPM against Homebrew's libzip, libplist and isa-l, and
# installs the binary, its man page (generated from the argument definitions) and bash/zsh/fish completions.
#
#   brew install --HEAD ./Formula/ipacheck.rb
#
# Tagged releases add `url` and `sha256` of the source archive here; until the first one, the formula builds HEAD.
class Ipacheck < Formula
  desc "Check an iOS build's associated domains against the apple-app-site-association files"
  homepage "https://github.com/ipacheck/ipacheck"
  head "https://github.com/ipacheck/ipacheck.git", branch: "main"

  depends_on "pkgconf" => :build
  depends_on "isa-l"
  depends_on "libplist"
  depends_on "libzip"
  uses_from_macos "swift" => :build

  def install
    system "swift", "build", "--disable-sandbox", "-c", "release", "--product", "ipacheck"
    bin.install ".build/release/ipacheck"
    system "swift", "build", "--disable-sandbox", "--product", "generate-manual"
    system ".build/debug/generate-manual", bin/"ipacheck", "--output-directory", buildpath/"man"
    man1.install buildpath/"man/ipacheck.1"
    generate_completions_from_executable(bin/"ipacheck", "--generate-completion-script")
  end

  test do
    assert_match(/\A\d+\.\d+\.\d+\n\z/, shell_output("#{bin}/ipacheck --version"))
    (testpath/"aasa.json").write <<~JSON
      {"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/shop/*"}]}]}}
    JSON
    output = shell_output(
      "#{bin}/ipacheck match https://example.com/shop/1 --app-id ABCDE12345.com.example.app --aasa #{testpath}/aasa.json",
    )
    assert_match "MATCH  https://example.com/shop/1", output
    shell_output("#{bin}/ipacheck match https://example.com/cart --app-id ABCDE12345.com.example.app " \
                 "--aasa #{testpath}/aasa.json", 1)
  end
end
