// agentdesk test fixture: an assembly named Netclaw.Configuration that embeds
// agentdesk's own short texts under the resource names NetClaw uses. It holds
// no code of NetClaw's.
using System.Reflection;

[assembly: AssemblyVersion("0.42.1.0")]
[assembly: AssemblyInformationalVersion("0.42.1-fixture+agentdesk")]

namespace Netclaw.Configuration
{
    /// <summary>Marks the fixture assembly.</summary>
    public static class Fixture
    {
        /// <summary>What this assembly is.</summary>
        public const string About = "agentdesk test fixture";
    }
}
